// Exercise 08.5: one decoder step with a key/value cache, equation (8.15).
#pragma once
#include "chapters/08_attention_at_scale/kv_cache.hpp"

namespace attn::ch08 {

template <class T>
struct CachedLayerStep {
    Var<T> output;          // (batch, 1, d): the layer's output at the new position
    Var<T> cross_weights;   // (batch, H, 1, n): the new position over the source
    LayerCache<T> cache;    // the input cache with the new position's self keys and values appended
};

// The decoder block (7.4) at one new position t only. The layer is chapter 07's
// TransformerDecoderLayer (H key/value heads) or a GroupedDecoderLayer (G of them, 08.4); the
// same code serves both, since project_heads and attend_heads (kv_cache.hpp) take either
// attention and the cache holds whatever G the layer has. y_t (batch, 1, d) is that
// position's input to the layer; cache holds the t earlier positions. With x the input of the
// self-attention (y_t in post-norm, norm1(y_t) in pre-norm), the new key and value are
// appended first, so that the position sees itself and everything before it, and nothing
// later (there is nothing later yet: no mask needed):
//   K = [cache.self_keys; x W_k^T + b_k],  V = [cache.self_values; x W_v^T + b_v]    (split into heads)
//   SA_t = attention of x over K, V;  CA(z) = attention of z over cache.memory_keys/values,
//   blocked by memory_padding (batch, n)                                                  (8.15)
// then the same residuals and norms as (7.4):
//   post-norm:  h1 = norm1(y_t + SA_t),  h2 = norm2(h1 + CA(h1)),  out = norm3(h2 + FFN(h2))
//   pre-norm:   h1 = y_t + SA_t,         h2 = h1 + CA(norm2(h1)),  out = h2 + FFN(norm3(h2))
// with FFN(z) = linear2(relu(linear1(z))). Stepping t = 0, 1, ... from start_layer_cache gives
// the rows of decoder_layer (or grouped_decoder_layer) with a causal mask. Use project_heads
// and attend_heads (kv_cache.hpp).
template <class T, class DecoderLayer>
CachedLayerStep<T> cached_decoder_step(const DecoderLayer& layer, const Var<T>& y_t, const LayerCache<T>& cache,
                                       const ch03::Mask& memory_padding = ch03::no_mask());

}  // namespace attn::ch08
