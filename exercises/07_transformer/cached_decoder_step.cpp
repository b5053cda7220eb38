// Exercise 07.4: one decoder step with a key/value cache, equation (7.5).
#include "chapters/07_transformer/cached_decoder_step.hpp"

#include "common/autodiff/ops.hpp"

namespace attn::ch07 {

// K = [cached keys; new key], V = [cached values; new value]; attend over them, then over
// the memory's cached keys and values, with (7.4)'s residuals and norms.                 (7.5)
template <class T>
CachedLayerStep<T> cached_decoder_step(const TransformerDecoderLayer<T>& layer, const Var<T>& y_t,
                                       const LayerCache<T>& cache, const ch03::Mask& memory_padding) {
    // TODO(07.4): return the decoder block (7.4) at the new position only, by (7.5): project
    //             the self-attention input's key and value (project_heads), append them to the
    //             cache *before* attending, attend over the grown cache and then over the
    //             cached memory keys and values (attend_heads, blocked by memory_padding), with
    //             the residuals and norms of layer.norm_placement; return the grown cache.
    //             Stuck? ./course hint 07.4
    COURSE_TODO("07.4");
}

// ---- instantiations: do not edit ----
template CachedLayerStep<float> cached_decoder_step(const TransformerDecoderLayer<float>&, const Var<float>&,
                                                    const LayerCache<float>&, const ch03::Mask&);
template CachedLayerStep<double> cached_decoder_step(const TransformerDecoderLayer<double>&, const Var<double>&,
                                                     const LayerCache<double>&, const ch03::Mask&);

}  // namespace attn::ch07
