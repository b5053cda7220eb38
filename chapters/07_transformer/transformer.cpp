// The whole encoder-decoder forward (see transformer.hpp): the blocks of exercises 07.2 and
// 07.3 stacked, each stack followed by its final norm, as torch.nn.Transformer.
#include "chapters/07_transformer/transformer.hpp"

#include "chapters/07_transformer/decoder_layer.hpp"
#include "chapters/07_transformer/encoder_layer.hpp"

namespace attn::ch07 {

template <class T>
EncoderOutput<T> encode(const TransformerEncoder<T>& encoder, const Var<T>& source, const ch03::Mask& source_padding) {
    EncoderOutput<T> encoded;
    Var<T> x = source;
    for (const auto& layer : encoder.layers) {
        EncoderLayerOutput<T> block = encoder_layer(*layer, x, source_padding);
        x = block.output;
        encoded.self_weights.push_back(block.self_weights);
    }
    encoded.memory = encoder.norm(x);
    return encoded;
}

template <class T>
EncoderOutput<T> encode(const Transformer<T>& model, const Var<T>& source, const ch03::Mask& source_padding) {
    return encode(model.encoder, source, source_padding);
}

template <class T>
TransformerOutput<T> decode(const Transformer<T>& model, const EncoderOutput<T>& encoded, const Var<T>& target,
                            const ch03::Mask& target_padding, const ch03::Mask& target_mask,
                            const ch03::Mask& memory_padding) {
    TransformerOutput<T> result;
    result.encoder = encoded;
    Var<T> y = target;
    for (const auto& layer : model.decoder.layers) {
        DecoderLayerOutput<T> block = decoder_layer(*layer, y, encoded.memory, target_padding, target_mask, memory_padding);
        y = block.output;
        result.self_weights.push_back(block.self_weights);
        result.cross_weights.push_back(block.cross_weights);
    }
    result.output = model.decoder.norm(y);
    return result;
}

template <class T>
TransformerOutput<T> transformer_forward(const Transformer<T>& model, const Var<T>& source, const Var<T>& target,
                                         const ch03::Mask& source_padding, const ch03::Mask& target_padding,
                                         const ch03::Mask& target_mask, const ch03::Mask& memory_padding) {
    return decode(model, encode(model, source, source_padding), target, target_padding, target_mask, memory_padding);
}

// ---- instantiations: do not edit ----
#define ATTN_INSTANTIATE(T)                                                                                        \
    template EncoderOutput<T> encode(const Transformer<T>&, const Var<T>&, const ch03::Mask&);                    \
    template EncoderOutput<T> encode(const TransformerEncoder<T>&, const Var<T>&, const ch03::Mask&);             \
    template TransformerOutput<T> decode(const Transformer<T>&, const EncoderOutput<T>&, const Var<T>&,           \
                                         const ch03::Mask&, const ch03::Mask&, const ch03::Mask&);                \
    template TransformerOutput<T> transformer_forward(const Transformer<T>&, const Var<T>&, const Var<T>&,        \
                                                      const ch03::Mask&, const ch03::Mask&, const ch03::Mask&,    \
                                                      const ch03::Mask&);
ATTN_INSTANTIATE(float)
ATTN_INSTANTIATE(double)

}  // namespace attn::ch07
