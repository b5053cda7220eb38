// The whole encoder-decoder forward of a Transformer: both stacks with their final norms, as
// torch.nn.Transformer.forward, keeping every layer's attention weights for the heatmaps.
#pragma once
#include "chapters/03_queries_keys_values/attention.hpp"
#include "chapters/07_transformer/transformer_layers.hpp"

#include <vector>

namespace attn::ch07 {

template <class T>
struct EncoderOutput {
    Var<T> memory;                        // (batch, n, d): encoder.norm of the last layer's output
    std::vector<Var<T>> self_weights;     // per layer (batch, heads, n, n)
};

template <class T>
struct TransformerOutput {
    Var<T> output;                        // (batch, m, d): decoder.norm of the last layer's output
    EncoderOutput<T> encoder;
    std::vector<Var<T>> self_weights;     // per decoder layer (batch, heads, m, m)
    std::vector<Var<T>> cross_weights;    // per decoder layer (batch, heads, m, n)
};

// source (batch, n, d) and target (batch, m, d) are already embedded (and position-coded).
// Masks as nn.Transformer's: source_padding (batch, n), target_padding (batch, m), target_mask
// (m, m) (normally causal), memory_padding (batch, n) (normally source_padding); true =
// blocked; any may be ch03::no_mask(). They come in the order the attentions use them, each
// one's key padding before its attention mask, as in decoder_layer and multi_head_attention
// (nn.Transformer.forward orders them otherwise: all attention masks first).
template <class T>
EncoderOutput<T> encode(const Transformer<T>& model, const Var<T>& source,
                        const ch03::Mask& source_padding = ch03::no_mask());
// The encoder stack alone, for a model that keeps this encoder beside a decoder of its own
// (chapter 08's decoder with fewer key/value heads).
template <class T>
EncoderOutput<T> encode(const TransformerEncoder<T>& encoder, const Var<T>& source,
                        const ch03::Mask& source_padding = ch03::no_mask());

template <class T>
TransformerOutput<T> decode(const Transformer<T>& model, const EncoderOutput<T>& encoded, const Var<T>& target,
                            const ch03::Mask& target_padding = ch03::no_mask(),
                            const ch03::Mask& target_mask = ch03::no_mask(),
                            const ch03::Mask& memory_padding = ch03::no_mask());

// encode, then decode.
template <class T>
TransformerOutput<T> transformer_forward(const Transformer<T>& model, const Var<T>& source, const Var<T>& target,
                                         const ch03::Mask& source_padding = ch03::no_mask(),
                                         const ch03::Mask& target_padding = ch03::no_mask(),
                                         const ch03::Mask& target_mask = ch03::no_mask(),
                                         const ch03::Mask& memory_padding = ch03::no_mask());

}  // namespace attn::ch07
