// Exercise 08.5: one decoder step with a key/value cache, equation (8.15).
#include "chapters/08_attention_at_scale/cached_decoder_step.hpp"

#include "common/autodiff/ops.hpp"

namespace attn::ch08 {

// K = [cached keys; new key], V = [cached values; new value]; attend over them, then over
// the memory's cached keys and values, with (7.4)'s residuals and norms.                 (8.15)
template <class T, class DecoderLayer>
CachedLayerStep<T> cached_decoder_step(const DecoderLayer& layer, const Var<T>& y_t, const LayerCache<T>& cache,
                                       const ch03::Mask& memory_padding) {
    // TODO(08.5): the decoder block (7.4) at the new position only, with the key/value cache
    //             of (8.15): the output there and the grown cache. Hint: ./course hint 08.5
    COURSE_TODO("08.5");
}

// ---- instantiations: do not edit ----
#define ATTN_INSTANTIATE(T, DecoderLayer)                                                                    \
    template CachedLayerStep<T> cached_decoder_step(const DecoderLayer<T>&, const Var<T>&, const LayerCache<T>&, \
                                                    const ch03::Mask&);
ATTN_INSTANTIATE(float, ch07::TransformerDecoderLayer)
ATTN_INSTANTIATE(double, ch07::TransformerDecoderLayer)
ATTN_INSTANTIATE(float, GroupedDecoderLayer)
ATTN_INSTANTIATE(double, GroupedDecoderLayer)

}  // namespace attn::ch08
