// Exercise 08.5: one decoder step with a key/value cache, equation (8.15).
#include "chapters/08_attention_at_scale/cached_decoder_step.hpp"

#include "common/autodiff/ops.hpp"

namespace attn::ch08 {

// K = [cached keys; new key], V = [cached values; new value]; attend over them, then over
// the memory's cached keys and values, with (7.4)'s residuals and norms.                 (8.15)
template <class T, class DecoderLayer>
CachedLayerStep<T> cached_decoder_step(const DecoderLayer& layer, const Var<T>& y_t, const LayerCache<T>& cache,
                                       const ch03::Mask& memory_padding) {
    const bool post = layer.norm_placement == ch07::NormPlacement::post;
    const Var<T> x = post ? y_t : layer.norm1(y_t);   // what the self-attention reads     (batch, 1, d)

    // Append before attending: the new position is one of the keys it looks at.
    LayerCache<T> grown = cache;
    grown.self_keys = concat<T>({cache.self_keys, project_heads(layer.self_attn, x, Projection::key)}, 1);
    grown.self_values = concat<T>({cache.self_values, project_heads(layer.self_attn, x, Projection::value)}, 1);
    const Var<T> self_attended = attend_heads(layer.self_attn, x, grown.self_keys, grown.self_values).output;
    const Var<T> h1 = post ? layer.norm1(y_t + self_attended) : y_t + self_attended;

    // Cross-attention: the memory's keys and values were projected once, by start_cache.
    const Var<T> z = post ? h1 : layer.norm2(h1);
    const ch03::Attention<T> cross =
        attend_heads(layer.multihead_attn, z, cache.memory_keys, cache.memory_values, memory_padding);
    const Var<T> h2 = post ? layer.norm2(h1 + cross.output) : h1 + cross.output;

    const Var<T> f = post ? h2 : layer.norm3(h2);
    const Var<T> fed_forward = layer.linear2(relu(layer.linear1(f)));
    const Var<T> out = post ? layer.norm3(h2 + fed_forward) : h2 + fed_forward;   // (batch, 1, d)
    return {out, cross.weights, grown};
    // Alternative: write into preallocated (batch * heads, max_len, d_h) buffers instead of
    // concatenating, which saves copying the cache at every step; the arithmetic is the same.
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
