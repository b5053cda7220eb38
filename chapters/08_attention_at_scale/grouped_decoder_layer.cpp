// Chapter 07's decoder block with grouped-query attention (see grouped_decoder_layer.hpp).
#include "chapters/08_attention_at_scale/grouped_decoder_layer.hpp"

#include "chapters/08_attention_at_scale/grouped_query_attention.hpp"
#include "common/autodiff/ops.hpp"

#include <string>
#include <utility>

namespace attn::ch08 {

template <class T>
GroupedDecoderLayer<T>::GroupedDecoderLayer(const ch07::TransformerSizes& sizes, std::size_t kv_heads, Rng& rng)
    : self_attn(sizes.d_model, sizes.heads, kv_heads, rng),
      multihead_attn(sizes.d_model, sizes.heads, kv_heads, rng),
      linear1(sizes.d_model, sizes.feed_forward, rng),
      linear2(sizes.feed_forward, sizes.d_model, rng),
      norm1({sizes.d_model}, 1e-5, sizes.statistics),
      norm2({sizes.d_model}, 1e-5, sizes.statistics),
      norm3({sizes.d_model}, 1e-5, sizes.statistics),
      norm_placement(sizes.norm) {
    this->register_module("self_attn", self_attn);
    this->register_module("multihead_attn", multihead_attn);
    this->register_module("linear1", linear1);
    this->register_module("linear2", linear2);
    this->register_module("norm1", norm1);
    this->register_module("norm2", norm2);
    this->register_module("norm3", norm3);
}

namespace {
// One sub-layer f with its residual connection and norm, where the placement puts them:
//   post-norm: norm(x + f(x))     pre-norm: x + f(norm(x))
// f returns the attention's output and weights; the weights come back beside the result.
template <class T, class SubLayer>
std::pair<Var<T>, Var<T>> around(ch07::NormPlacement placement, const ch07::LayerNorm<T>& norm, const Var<T>& x,
                                 const SubLayer& f) {
    if (placement == ch07::NormPlacement::post) {
        const GroupedQueryOutput<T> out = f(x);
        return {norm(x + out.output), out.head_weights};
    }
    const GroupedQueryOutput<T> out = f(norm(x));
    return {x + out.output, out.head_weights};
}
}  // namespace

//   post-norm:  h1 = norm1(y + SA(y)),  h2 = norm2(h1 + CA(h1)),  out = norm3(h2 + FFN(h2))   (7.4)
//   pre-norm:   h1 = y + SA(norm1(y)),  h2 = h1 + CA(norm2(h1)),  out = h2 + FFN(norm3(h2))
template <class T>
ch07::DecoderLayerOutput<T> grouped_decoder_layer(const GroupedDecoderLayer<T>& layer, const Var<T>& y,
                                                  const Var<T>& memory, const ch03::Mask& target_padding,
                                                  const ch03::Mask& self_mask, const ch03::Mask& memory_padding) {
    // Self-attention of the target, G key/value heads for its H query heads (08.4).
    const auto self_attention = [&](const Var<T>& z) {
        return grouped_query_attention(layer.self_attn, z, z, z, target_padding, self_mask);
    };
    // Cross-attention: the target's queries, the memory's keys and values, G heads of them.
    const auto cross_attention = [&](const Var<T>& z) {
        return grouped_query_attention(layer.multihead_attn, z, memory, memory, memory_padding);
    };
    const auto [h1, self_weights] = around(layer.norm_placement, layer.norm1, y, self_attention);
    const auto [h2, cross_weights] = around(layer.norm_placement, layer.norm2, h1, cross_attention);
    const auto feed_forward = [&](const Var<T>& z) { return layer.linear2(relu(layer.linear1(z))); };
    const Var<T> out = layer.norm_placement == ch07::NormPlacement::post ? layer.norm3(h2 + feed_forward(h2))
                                                                         : h2 + feed_forward(layer.norm3(h2));
    return {out, self_weights, cross_weights};
}

template <class T>
GroupedDecoder<T>::GroupedDecoder(const ch07::TransformerSizes& sizes, std::size_t kv_heads, Rng& rng)
    : norm({sizes.d_model}, 1e-5, sizes.statistics) {
    for (std::size_t i = 0; i < sizes.decoder_layers; ++i) {
        layers.push_back(std::make_unique<GroupedDecoderLayer<T>>(sizes, kv_heads, rng));
        this->register_module("layers." + std::to_string(i), *layers.back());
    }
    this->register_module("norm", norm);
}

template <class T>
ch07::TransformerOutput<T> grouped_decode(const GroupedDecoder<T>& decoder, const ch07::EncoderOutput<T>& encoded,
                                          const Var<T>& target, const ch03::Mask& target_padding,
                                          const ch03::Mask& target_mask, const ch03::Mask& memory_padding) {
    ch07::TransformerOutput<T> result;
    result.encoder = encoded;
    Var<T> y = target;
    for (const auto& layer : decoder.layers) {
        ch07::DecoderLayerOutput<T> block =
            grouped_decoder_layer(*layer, y, encoded.memory, target_padding, target_mask, memory_padding);
        y = block.output;
        result.self_weights.push_back(std::move(block.self_weights));
        result.cross_weights.push_back(std::move(block.cross_weights));
    }
    result.output = decoder.norm(y);
    return result;
}

#define ATTN_INSTANTIATE(T)                                                                                          \
    template class GroupedDecoderLayer<T>;                                                                          \
    template class GroupedDecoder<T>;                                                                               \
    template ch07::DecoderLayerOutput<T> grouped_decoder_layer(const GroupedDecoderLayer<T>&, const Var<T>&,       \
                                                               const Var<T>&, const ch03::Mask&, const ch03::Mask&, \
                                                               const ch03::Mask&);                                  \
    template ch07::TransformerOutput<T> grouped_decode(const GroupedDecoder<T>&, const ch07::EncoderOutput<T>&,     \
                                                       const Var<T>&, const ch03::Mask&, const ch03::Mask&,         \
                                                       const ch03::Mask&);
ATTN_INSTANTIATE(float)
ATTN_INSTANTIATE(double)

}  // namespace attn::ch08
