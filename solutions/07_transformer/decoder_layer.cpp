// Exercise 07.3: the decoder block: causal self-attention, cross-attention, feed-forward, equation (7.4)
#include "chapters/07_transformer/decoder_layer.hpp"

#include "chapters/05_multi_head_attention/multi_head_attention.hpp"
#include "common/autodiff/ops.hpp"

namespace attn::ch07 {

//   post-norm:  h1 = norm1(y + SA(y)),  h2 = norm2(h1 + CA(h1)),  out = norm3(h2 + FFN(h2))   (7.4)
//   pre-norm:   h1 = y + SA(norm1(y)),  h2 = h1 + CA(norm2(h1)),  out = h2 + FFN(norm3(h2))
template <class T>
DecoderLayerOutput<T> decoder_layer(const TransformerDecoderLayer<T>& layer, const Var<T>& y, const Var<T>& memory,
                                    const ch03::Mask& target_padding, const ch03::Mask& self_mask,
                                    const ch03::Mask& memory_padding) {
    // The target attends to itself, never to its padding and never ahead (self_mask): the
    // key padding first, then the attention mask, in multi_head_attention's order.
    const auto self_attention = [&](const Var<T>& z) {
        return ch05::multi_head_attention(layer.self_attn, z, z, z, target_padding, self_mask);
    };
    // Cross-attention: the queries are the target's, the keys AND the values the memory's.
    const auto cross_attention = [&](const Var<T>& z) {
        return ch05::multi_head_attention(layer.multihead_attn, z, memory, memory, memory_padding);
    };
    const auto feed_forward = [&](const Var<T>& z) { return layer.linear2(relu(layer.linear1(z))); };

    if (layer.norm_placement == NormPlacement::post) {
        const ch05::MultiHeadOutput<T> self = self_attention(y);
        const Var<T> h1 = layer.norm1(y + self.output);
        const ch05::MultiHeadOutput<T> cross = cross_attention(h1);
        const Var<T> h2 = layer.norm2(h1 + cross.output);
        return {layer.norm3(h2 + feed_forward(h2)), self.head_weights, cross.head_weights};
    }
    const ch05::MultiHeadOutput<T> self = self_attention(layer.norm1(y));
    const Var<T> h1 = y + self.output;
    const ch05::MultiHeadOutput<T> cross = cross_attention(layer.norm2(h1));
    const Var<T> h2 = h1 + cross.output;
    return {h2 + feed_forward(layer.norm3(h2)), self.head_weights, cross.head_weights};
}

// ---- instantiations: do not edit ----
template DecoderLayerOutput<float> decoder_layer(const TransformerDecoderLayer<float>&, const Var<float>&,
                                                 const Var<float>&, const ch03::Mask&, const ch03::Mask&,
                                                 const ch03::Mask&);
template DecoderLayerOutput<double> decoder_layer(const TransformerDecoderLayer<double>&, const Var<double>&,
                                                  const Var<double>&, const ch03::Mask&, const ch03::Mask&,
                                                  const ch03::Mask&);

}  // namespace attn::ch07
