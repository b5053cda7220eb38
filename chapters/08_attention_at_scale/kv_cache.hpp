// The key/value cache of incremental decoding, equation (8.15): what each decoder layer keeps
// between steps, how it starts from the encoder's output, how the whole stack steps, and how
// beam search reorders it. The one-layer step itself is exercise 08.5 (cached_decoder_step.hpp).
#pragma once
#include "chapters/03_queries_keys_values/attention.hpp"
#include "chapters/07_transformer/transformer_layers.hpp"
#include "chapters/08_attention_at_scale/grouped_decoder_layer.hpp"

#include <vector>

namespace attn::ch08 {

// One decoder layer's memory of the past, per key/value head, in split_heads' layout (5.1):
// row b * G + g holds key/value head g of sentence b. G is the layer's key/value heads: H for
// chapter 07's multi-head attention, fewer for grouped-query attention (08.4), whose cache is
// H / G times smaller (8.14).
template <class T>
struct LayerCache {
    Var<T> self_keys, self_values;       // (batch * G, t, d_h): the t target positions stepped so far
    Var<T> memory_keys, memory_values;   // (batch * G, n, d_h): the encoder's output, projected once
    std::size_t length() const { return self_keys.shape(1); }   // t
};

// Every layer's cache, and which source positions are padding.
template <class T>
struct DecoderCache {
    std::vector<LayerCache<T>> layers;
    ch03::Mask memory_padding;   // (batch, n), or no_mask()
    std::size_t batch = 0;       // sentences (each cached tensor has batch * G rows)
};

// Which of the three stacked projections of multi-head attention (in_proj_weight's blocks).
enum class Projection { query = 0, key = 1, value = 2 };

// x W^T + b for one of the three projections, split into heads: x (batch, n, d) ->
// (batch * H, n, d_h) for the queries, (batch * G, n, d_h) for keys and values. The cache
// stores keys and values in this form. Multi-head attention (5.3): the rows of in_proj for that
// projection, G = H. Grouped-query attention (8.11): q_proj, k_proj or v_proj, G = kv_heads().
template <class T>
Var<T> project_heads(const ch05::MultiHeadAttention<T>& layer, const Var<T>& x, Projection which);
template <class T>
Var<T> project_heads(const GroupedQueryAttention<T>& layer, const Var<T>& x, Projection which);

// The attention (5.4) or (8.12)-(8.13) of the queries x (batch, n_q, d) over keys and values
// that are already projected and split, (batch * G, n_k, d_h); key_padding (batch, n_k) or
// no_mask(). -> {output (batch, n_q, d) after the output projection, weights (batch, H, n_q,
// n_k)}. With keys and values projected from y, it equals ch05::multi_head_attention(layer, x,
// y, y), or grouped_query_attention(layer, x, y, y).
template <class T>
ch03::Attention<T> attend_heads(const ch05::MultiHeadAttention<T>& layer, const Var<T>& x, const Var<T>& keys,
                                const Var<T>& values, const ch03::Mask& key_padding = ch03::no_mask());
template <class T>
ch03::Attention<T> attend_heads(const GroupedQueryAttention<T>& layer, const Var<T>& x, const Var<T>& keys,
                                const Var<T>& values, const ch03::Mask& key_padding = ch03::no_mask());

// One layer's cache before the first step: no target position yet (t = 0), and the
// cross-attention's keys and values projected from memory (batch, n, d), once. The layer is
// chapter 07's TransformerDecoderLayer or a GroupedDecoderLayer.
template <class T, class DecoderLayer>
LayerCache<T> start_layer_cache(const DecoderLayer& layer, const Var<T>& memory);

// An empty cache for a decoder over memory (batch, n, d): no target position yet (t = 0), and
// every layer's cross-attention keys and values projected from the memory once. The decoder
// is chapter 07's TransformerDecoder or a GroupedDecoder.
template <class T, class Decoder>
DecoderCache<T> start_cache(const Decoder& decoder, const Var<T>& memory, const ch03::Mask& memory_padding = ch03::no_mask());

// What one step of the whole decoder returns.
template <class T>
struct DecoderStep {
    Var<T> output;                        // (batch, 1, d): decoder.norm of the last layer's output
    std::vector<Var<T>> cross_weights;    // per layer (batch, H, 1, n)
    DecoderCache<T> cache;                // every layer's cache, one position longer
};

// The new target position y_t (batch, 1, d) through every layer (cached_decoder_step, (8.15))
// and the final decoder.norm: row t of decode(...) with a causal mask, computed from the
// cache instead of the whole prefix.
template <class T, class Decoder>
DecoderStep<T> decoder_stack_step(const Decoder& decoder, const Var<T>& y_t, const DecoderCache<T>& cache);

// For beam search: new row i continues old row parents[i] (index_select on the batch axis of
// every cached tensor and of the padding). Throws std::invalid_argument if a parent is out of range.
template <class T>
DecoderCache<T> reorder(const DecoderCache<T>& cache, const std::vector<std::size_t>& parents);

}  // namespace attn::ch08
