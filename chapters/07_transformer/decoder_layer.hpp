// Exercise 07.3: the decoder block, equation (7.4).
#pragma once
#include "chapters/03_queries_keys_values/attention.hpp"
#include "chapters/07_transformer/transformer_layers.hpp"

namespace attn::ch07 {

template <class T>
struct DecoderLayerOutput {
    Var<T> output;          // (batch, m, d)
    Var<T> self_weights;    // (batch, heads, m, m): causal self-attention
    Var<T> cross_weights;   // (batch, heads, m, n): target positions over source positions
};

// y (batch, m, d) the target side, memory (batch, n, d) the encoder's output. With
// SA = multi-head self-attention of the target (blocked by target_padding and self_mask),
// CA(z) = multihead_attn with queries z and keys and values both from memory (blocked by
// memory_padding), FFN as in the encoder:
//   post-norm:  h1 = norm1(y + SA(y)),  h2 = norm2(h1 + CA(h1)),  out = norm3(h2 + FFN(h2))   (7.4)
//   pre-norm:   h1 = y + SA(norm1(y)),  h2 = h1 + CA(norm2(h1)),  out = h2 + FFN(norm3(h2))
// target_padding (batch, m); self_mask (m, m) or (batch, m, m), normally ch03::causal_mask;
// memory_padding (batch, n); any may be ch03::no_mask(). The masks come in the order the
// sub-layers use them, each attention's key padding before its attention mask, as
// ch05::multi_head_attention (and torch.nn.MultiheadAttention) take them.
template <class T>
DecoderLayerOutput<T> decoder_layer(const TransformerDecoderLayer<T>& layer, const Var<T>& y, const Var<T>& memory,
                                    const ch03::Mask& target_padding = ch03::no_mask(),
                                    const ch03::Mask& self_mask = ch03::no_mask(),
                                    const ch03::Mask& memory_padding = ch03::no_mask());

}  // namespace attn::ch07
