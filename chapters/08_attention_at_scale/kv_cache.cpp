// The key/value cache around exercise 08.5: projections into heads, attention over cached
// keys and values, the cache's start, the whole decoder's step, and beam search's reorder.
#include "chapters/08_attention_at_scale/kv_cache.hpp"

#include "chapters/03_queries_keys_values/scaled_dot_product_attention.hpp"
#include "chapters/05_multi_head_attention/head_masks.hpp"
#include "chapters/05_multi_head_attention/merge_heads.hpp"
#include "chapters/05_multi_head_attention/split_heads.hpp"
#include "chapters/08_attention_at_scale/cached_decoder_step.hpp"
#include "common/autodiff/ops.hpp"

#include <stdexcept>
#include <string>

namespace attn::ch08 {

// split(x W^T + b) with W, b the rows [part d, (part + 1) d) of in_proj                   (5.3)
template <class T>
Var<T> project_heads(const ch05::MultiHeadAttention<T>& layer, const Var<T>& x, Projection which) {
    const std::size_t d = layer.d_model(), part = static_cast<std::size_t>(which);
    const Var<T> W = slice(layer.in_proj_weight, 0, part * d, (part + 1) * d);   // (d, d)
    const Var<T> b = slice(layer.in_proj_bias, 0, part * d, (part + 1) * d);     // (d)
    return ch05::split_heads(matmul(x, W, false, true) + b, layer.heads());     // (batch * heads, n, d_h)
}

// split(q_proj(x)) into H heads, split(k_proj(x)) or split(v_proj(x)) into G             (8.11)
template <class T>
Var<T> project_heads(const GroupedQueryAttention<T>& layer, const Var<T>& x, Projection which) {
    switch (which) {
        case Projection::query: return ch05::split_heads(layer.q_proj(x), layer.heads());      // (batch * H, n, d_h)
        case Projection::key: return ch05::split_heads(layer.k_proj(x), layer.kv_heads());     // (batch * G, n, d_h)
        case Projection::value: return ch05::split_heads(layer.v_proj(x), layer.kv_heads());
    }
    throw std::invalid_argument("project_heads: unknown projection");
}

namespace {

// Queries (batch * H, n_q, d_h) over keys and values (batch * G, n_k, d_h), query head h
// reading key/value head h / r, r = H / G (8.12). The r query heads of a group are consecutive
// rows, so a reshape stacks them along the query axis, (batch * G, r n_q, d_h), against their
// group's one K and V: the cache is read as it is, never copied r times.
// -> {per-head outputs (batch * H, n_q, d_h), weights (batch, H, n_q, n_k)}.
template <class T>
ch03::Attention<T> attend_in_groups(const Var<T>& queries, const Var<T>& keys, const Var<T>& values,
                                    const ch03::Mask& key_padding, std::size_t batch, std::size_t heads) {
    const std::size_t n_q = queries.shape(1), d_h = queries.shape(2), n_k = keys.shape(1);
    const std::size_t kv_heads = keys.shape(0) / batch, r = heads / kv_heads;
    const Var<T> stacked = reshape(queries, {batch * kv_heads, r * n_q, d_h});
    const ch03::Mask blocked =
        ch05::repeat_for_heads(ch05::combine_masks(key_padding, ch03::no_mask(), batch, r * n_q, n_k), kv_heads);
    const ch03::Attention<T> grouped = ch03::scaled_dot_product_attention(stacked, keys, values, blocked);
    return {reshape(grouped.output, {batch * heads, n_q, d_h}), reshape(grouped.weights, {batch, heads, n_q, n_k})};
}

}  // namespace

// output = merge_h attention(Q_h, K_h, V_h) W_o^T + b_o                                    (5.4)
template <class T>
ch03::Attention<T> attend_heads(const ch05::MultiHeadAttention<T>& layer, const Var<T>& x, const Var<T>& keys,
                                const Var<T>& values, const ch03::Mask& key_padding) {
    const Var<T> queries = project_heads(layer, x, Projection::query);   // (batch * H, n_q, d_h)
    const ch03::Attention<T> per_head = attend_in_groups(queries, keys, values, key_padding, x.shape(0), layer.heads());
    return {layer.out_proj(ch05::merge_heads(per_head.output, layer.heads())), per_head.weights};
}

// output = concat_h attention(Q_h, K_g, V_g) W_o^T + b_o, g = h / r                  (8.12)-(8.13)
template <class T>
ch03::Attention<T> attend_heads(const GroupedQueryAttention<T>& layer, const Var<T>& x, const Var<T>& keys,
                                const Var<T>& values, const ch03::Mask& key_padding) {
    const Var<T> queries = project_heads(layer, x, Projection::query);   // (batch * H, n_q, d_h)
    const ch03::Attention<T> per_head = attend_in_groups(queries, keys, values, key_padding, x.shape(0), layer.heads());
    return {layer.o_proj(ch05::merge_heads(per_head.output, layer.heads())), per_head.weights};
}

namespace {
// How many key/value heads the cache keeps per sentence: all H of multi-head attention, G of grouped.
template <class T>
std::size_t cached_heads(const ch05::MultiHeadAttention<T>& attention) { return attention.heads(); }
template <class T>
std::size_t cached_heads(const GroupedQueryAttention<T>& attention) { return attention.kv_heads(); }
}  // namespace

template <class T, class DecoderLayer>
LayerCache<T> start_layer_cache(const DecoderLayer& layer, const Var<T>& memory) {
    const std::size_t rows = memory.shape(0) * cached_heads(layer.self_attn), d_h = layer.self_attn.head_size();
    const Var<T> nothing = constant<T>(Array<T>::from_shape({rows, 0, d_h}));   // t = 0 positions
    return {nothing, nothing, project_heads(layer.multihead_attn, memory, Projection::key),
            project_heads(layer.multihead_attn, memory, Projection::value)};
}

template <class T, class Decoder>
DecoderCache<T> start_cache(const Decoder& decoder, const Var<T>& memory, const ch03::Mask& memory_padding) {
    DecoderCache<T> cache{{}, memory_padding, memory.shape(0)};
    for (const auto& layer : decoder.layers) cache.layers.push_back(start_layer_cache(*layer, memory));
    return cache;
}

template <class T, class Decoder>
DecoderStep<T> decoder_stack_step(const Decoder& decoder, const Var<T>& y_t, const DecoderCache<T>& cache) {
    if (cache.layers.size() != decoder.layers.size())
        throw std::invalid_argument("decoder_stack_step: the cache has " + std::to_string(cache.layers.size()) +
                                    " layers but the decoder " + std::to_string(decoder.layers.size()) +
                                    "; start it with start_cache(decoder, memory)");
    DecoderStep<T> step{y_t, {}, {{}, cache.memory_padding, cache.batch}};
    for (std::size_t l = 0; l < decoder.layers.size(); ++l) {
        CachedLayerStep<T> layer_step =
            cached_decoder_step(*decoder.layers[l], step.output, cache.layers[l], cache.memory_padding);   // (8.15)
        step.output = layer_step.output;
        step.cross_weights.push_back(layer_step.cross_weights);
        step.cache.layers.push_back(layer_step.cache);
    }
    step.output = decoder.norm(step.output);   // nn.Transformer's final norm of the stack
    return step;
}

template <class T>
DecoderCache<T> reorder(const DecoderCache<T>& cache, const std::vector<std::size_t>& parents) {
    for (std::size_t parent : parents)
        if (parent >= cache.batch)
            throw std::invalid_argument("reorder: parent " + std::to_string(parent) + ", but the cache holds " +
                                        std::to_string(cache.batch) + " sentences");
    DecoderCache<T> reordered{{}, ch03::no_mask(), parents.size()};
    if (!ch03::is_empty(cache.memory_padding)) {
        const std::size_t n = cache.memory_padding.shape(1);
        reordered.memory_padding = ch03::Mask::from_shape({parents.size(), n});
        for (std::size_t i = 0; i < parents.size(); ++i)
            for (std::size_t j = 0; j < n; ++j) reordered.memory_padding(i, j) = cache.memory_padding(parents[i], j);
    }
    for (const LayerCache<T>& layer : cache.layers) {
        // Cached row b * G + g is key/value head g of sentence b (5.1): sentence i takes parents[i]'s heads.
        const std::size_t heads = layer.memory_keys.shape(0) / cache.batch;
        std::vector<std::size_t> rows;
        for (std::size_t parent : parents)
            for (std::size_t h = 0; h < heads; ++h) rows.push_back(parent * heads + h);
        reordered.layers.push_back({index_select(layer.self_keys, 0, rows), index_select(layer.self_values, 0, rows),
                                    index_select(layer.memory_keys, 0, rows),
                                    index_select(layer.memory_values, 0, rows)});
    }
    return reordered;
}

#define ATTN_INSTANTIATE_LAYER(T, AttentionLayer, Layer, Decoder)                                                       \
    template Var<T> project_heads(const AttentionLayer<T>&, const Var<T>&, Projection);                                 \
    template ch03::Attention<T> attend_heads(const AttentionLayer<T>&, const Var<T>&, const Var<T>&, const Var<T>&,      \
                                             const ch03::Mask&);                                                   \
    template LayerCache<T> start_layer_cache(const Layer<T>&, const Var<T>&);                                      \
    template DecoderCache<T> start_cache(const Decoder<T>&, const Var<T>&, const ch03::Mask&);                     \
    template DecoderStep<T> decoder_stack_step(const Decoder<T>&, const Var<T>&, const DecoderCache<T>&);
#define ATTN_INSTANTIATE(T)                                                                                          \
    ATTN_INSTANTIATE_LAYER(T, ch05::MultiHeadAttention, ch07::TransformerDecoderLayer, ch07::TransformerDecoder)     \
    ATTN_INSTANTIATE_LAYER(T, GroupedQueryAttention, GroupedDecoderLayer, GroupedDecoder)                           \
    template DecoderCache<T> reorder(const DecoderCache<T>&, const std::vector<std::size_t>&);
ATTN_INSTANTIATE(float)
ATTN_INSTANTIATE(double)

}  // namespace attn::ch08
