// Exercise 07.4: one decoder step with a key/value cache, equation (7.5).
#include "chapters/07_transformer/cached_decoder_step.hpp"

#include "common/autodiff/ops.hpp"

namespace attn::ch07 {

// K = [cached keys; new key], V = [cached values; new value]; attend over them, then over
// the memory's cached keys and values, with (7.4)'s residuals and norms.                 (7.5)
template <class T>
CachedLayerStep<T> cached_decoder_step(const TransformerDecoderLayer<T>& layer, const Var<T>& y_t,
                                       const LayerCache<T>& cache, const ch03::Mask& memory_padding) {
    // TODO(07.4): the decoder block (7.4) at the new position only, with the key/value cache
    //             of (7.5): the output there and the grown cache. Hint: ./course hint 07.4
    COURSE_TODO("07.4");
}

// ---- instantiations: do not edit ----
template CachedLayerStep<float> cached_decoder_step(const TransformerDecoderLayer<float>&, const Var<float>&,
                                                    const LayerCache<float>&, const ch03::Mask&);
template CachedLayerStep<double> cached_decoder_step(const TransformerDecoderLayer<double>&, const Var<double>&,
                                                     const LayerCache<double>&, const ch03::Mask&);

}  // namespace attn::ch07
