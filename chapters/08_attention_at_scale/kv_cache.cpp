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

// output = merge_h attention(Q_h, K_h, V_h) W_o^T + b_o                                    (5.4)
template <class T>
ch03::Attention<T> attend_heads(const ch05::MultiHeadAttention<T>& layer, const Var<T>& x, const Var<T>& keys,
                                const Var<T>& values, const ch03::Mask& key_padding) {
    const std::size_t batch = x.shape(0), n_q = x.shape(1), n_k = keys.shape(1), heads = layer.heads();
    const Var<T> queries = project_heads(layer, x, Projection::query);   // (batch * heads, n_q, d_h)
    const ch03::Mask blocked =
        ch05::repeat_for_heads(ch05::combine_masks(key_padding, ch03::no_mask(), batch, n_q, n_k), heads);
    const ch03::Attention<T> per_head = ch03::scaled_dot_product_attention(queries, keys, values, blocked);
    return {layer.out_proj(ch05::merge_heads(per_head.output, heads)),     // (batch, n_q, d)
            reshape(per_head.weights, {batch, heads, n_q, n_k})};
}

template <class T>
LayerCache<T> start_layer_cache(const ch07::TransformerDecoderLayer<T>& layer, const Var<T>& memory) {
    const std::size_t rows = memory.shape(0) * layer.self_attn.heads(), d_h = layer.self_attn.head_size();
    const Var<T> nothing = constant<T>(Array<T>::from_shape({rows, 0, d_h}));   // t = 0 positions
    return {nothing, nothing, project_heads(layer.multihead_attn, memory, Projection::key),
            project_heads(layer.multihead_attn, memory, Projection::value)};
}

template <class T>
DecoderCache<T> start_cache(const ch07::TransformerDecoder<T>& decoder, const Var<T>& memory,
                            const ch03::Mask& memory_padding) {
    DecoderCache<T> cache{{}, memory_padding, memory.shape(0)};
    for (const auto& layer : decoder.layers) cache.layers.push_back(start_layer_cache(*layer, memory));
    return cache;
}

template <class T>
DecoderStep<T> decoder_stack_step(const ch07::TransformerDecoder<T>& decoder, const Var<T>& y_t, const DecoderCache<T>& cache) {
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
        // Cached row b * heads + h is head h of sentence b (5.1): sentence i takes parents[i]'s heads.
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

template Var<float> project_heads(const ch05::MultiHeadAttention<float>&, const Var<float>&, Projection);
template ch03::Attention<float> attend_heads(const ch05::MultiHeadAttention<float>&, const Var<float>&, const Var<float>&,
                                          const Var<float>&, const ch03::Mask&);
template LayerCache<float> start_layer_cache(const ch07::TransformerDecoderLayer<float>&, const Var<float>&);
template DecoderCache<float> start_cache(const ch07::TransformerDecoder<float>&, const Var<float>&, const ch03::Mask&);
template DecoderStep<float> decoder_stack_step(const ch07::TransformerDecoder<float>&, const Var<float>&, const DecoderCache<float>&);
template DecoderCache<float> reorder(const DecoderCache<float>&, const std::vector<std::size_t>&);
template Var<double> project_heads(const ch05::MultiHeadAttention<double>&, const Var<double>&, Projection);
template ch03::Attention<double> attend_heads(const ch05::MultiHeadAttention<double>&, const Var<double>&, const Var<double>&,
                                          const Var<double>&, const ch03::Mask&);
template LayerCache<double> start_layer_cache(const ch07::TransformerDecoderLayer<double>&, const Var<double>&);
template DecoderCache<double> start_cache(const ch07::TransformerDecoder<double>&, const Var<double>&, const ch03::Mask&);
template DecoderStep<double> decoder_stack_step(const ch07::TransformerDecoder<double>&, const Var<double>&, const DecoderCache<double>&);
template DecoderCache<double> reorder(const DecoderCache<double>&, const std::vector<std::size_t>&);

}  // namespace attn::ch08
