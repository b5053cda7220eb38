// Exercise 07.2: the encoder block, equations (7.2)-(7.3).
#pragma once
#include "chapters/03_queries_keys_values/attention.hpp"
#include "chapters/07_transformer/transformer_layers.hpp"

namespace attn::ch07 {

// What a block returns: its output and the attention weights of each head, for the heatmaps.
template <class T>
struct EncoderLayerOutput {
    Var<T> output;         // (batch, n, d)
    Var<T> self_weights;   // (batch, heads, n, n)
};

// With SA(z) = multi-head self-attention of z (chapter 05, keys blocked by key_padding) and
// FFN(z) = linear2(relu(linear1(z))):
//   post-norm:  h = norm1(x + SA(x)),        out = norm2(h + FFN(h))                  (7.2)
//   pre-norm:   h = x + SA(norm1(x)),         out = h + FFN(norm2(h))                  (7.3)
// x (batch, n, d); key_padding (batch, n), true = padding, or ch03::no_mask().
template <class T>
EncoderLayerOutput<T> encoder_layer(const TransformerEncoderLayer<T>& layer, const Var<T>& x,
                                    const ch03::Mask& key_padding = ch03::no_mask());

}  // namespace attn::ch07
