// Exercise 07.2: the encoder block, post-norm and pre-norm, equations (7.2)-(7.3)
#include "chapters/07_transformer/encoder_layer.hpp"

#include "chapters/05_multi_head_attention/multi_head_attention.hpp"
#include "common/autodiff/ops.hpp"

namespace attn::ch07 {

//   post-norm:  h = norm1(x + SA(x)),   out = norm2(h + FFN(h))                        (7.2)
//   pre-norm:   h = x + SA(norm1(x)),   out = h + FFN(norm2(h))                        (7.3)
template <class T>
EncoderLayerOutput<T> encoder_layer(const TransformerEncoderLayer<T>& layer, const Var<T>& x,
                                    const ch03::Mask& key_padding) {
    // Self-attention: queries, keys and values are all z; padded keys are never looked at.
    const auto self_attention = [&](const Var<T>& z) {
        return ch05::multi_head_attention(layer.self_attn, z, z, z, key_padding);
    };
    const auto feed_forward = [&](const Var<T>& z) { return layer.linear2(relu(layer.linear1(z))); };

    if (layer.norm_placement == NormPlacement::post) {
        const ch05::MultiHeadOutput<T> attended = self_attention(x);
        const Var<T> h = layer.norm1(x + attended.output);                            // (7.2)
        return {layer.norm2(h + feed_forward(h)), attended.head_weights};
    }
    const ch05::MultiHeadOutput<T> attended = self_attention(layer.norm1(x));
    const Var<T> h = x + attended.output;                                             // (7.3)
    return {h + feed_forward(layer.norm2(h)), attended.head_weights};
}

// ---- instantiations: do not edit ----
template EncoderLayerOutput<float> encoder_layer(const TransformerEncoderLayer<float>&, const Var<float>&,
                                                 const ch03::Mask&);
template EncoderLayerOutput<double> encoder_layer(const TransformerEncoderLayer<double>&, const Var<double>&,
                                                  const ch03::Mask&);

}  // namespace attn::ch07
