// Chapter 07's decoder block with grouped-query attention (08.4) in both its attentions: the
// causal self-attention and the cross-attention over the encoder's output each have H query
// heads sharing G key/value heads. Everything else is chapter 07's: the feed-forward network,
// the layer norms, their placement and the residual connections (7.4). Only the decoder is
// grouped, as Ainslie et al. (2023) do it: the key/value cache that G shrinks is the decoder's,
// while the encoder reads its whole source at once and keeps nothing between steps.
#pragma once
#include "chapters/07_transformer/decoder_layer.hpp"
#include "chapters/07_transformer/transformer.hpp"
#include "chapters/08_attention_at_scale/grouped_query_layer.hpp"

#include <memory>
#include <vector>

namespace attn::ch08 {

template <class T>
class GroupedDecoderLayer : public Module<T> {
public:
    // sizes as chapter 07's decoder layer takes them; kv_heads = G, a divisor of sizes.heads.
    GroupedDecoderLayer(const ch07::TransformerSizes& sizes, std::size_t kv_heads, Rng& rng);
    GroupedQueryAttention<T> self_attn, multihead_attn;   // multihead_attn: the cross-attention, named as chapter 07's
    Linear<T> linear1, linear2;
    ch07::LayerNorm<T> norm1, norm2, norm3;
    ch07::NormPlacement norm_placement;
};

// Equation (7.4) with SA and CA computed by grouped_query_attention (8.11)-(8.13); arguments
// and masks as chapter 07's decoder_layer. The weights returned are each query head's:
// (batch, H, m, m) and (batch, H, m, n). With G = H and chapter 07's weights carried over
// (copy_multi_head for each attention), this is chapter 07's decoder_layer.
template <class T>
ch07::DecoderLayerOutput<T> grouped_decoder_layer(const GroupedDecoderLayer<T>& layer, const Var<T>& y,
                                                  const Var<T>& memory,
                                                  const ch03::Mask& target_padding = ch03::no_mask(),
                                                  const ch03::Mask& self_mask = ch03::no_mask(),
                                                  const ch03::Mask& memory_padding = ch03::no_mask());

// The stack of decoder layers with its final norm, as chapter 07's TransformerDecoder.
template <class T>
class GroupedDecoder : public Module<T> {
public:
    GroupedDecoder(const ch07::TransformerSizes& sizes, std::size_t kv_heads, Rng& rng);
    std::vector<std::unique_ptr<GroupedDecoderLayer<T>>> layers;   // "layers.0", "layers.1", ...
    ch07::LayerNorm<T> norm;
};

// Chapter 07's decode through the grouped layers: target (batch, m, d), already embedded, over
// encoded.memory; the masks as chapter 07's decode takes them.
template <class T>
ch07::TransformerOutput<T> grouped_decode(const GroupedDecoder<T>& decoder, const ch07::EncoderOutput<T>& encoded,
                                          const Var<T>& target, const ch03::Mask& target_padding,
                                          const ch03::Mask& target_mask, const ch03::Mask& memory_padding);

}  // namespace attn::ch08
