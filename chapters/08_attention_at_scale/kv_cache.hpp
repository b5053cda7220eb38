// The key/value cache of incremental decoding, equation (8.15): what each decoder layer keeps
// between steps, how it starts from the encoder's output, how the whole stack steps, and how
// beam search reorders it. The one-layer step itself is exercise 08.5 (cached_decoder_step.hpp).
#pragma once
#include "chapters/03_queries_keys_values/attention.hpp"
#include "chapters/07_transformer/transformer_layers.hpp"

#include <vector>

namespace attn::ch08 {

// One decoder layer's memory of the past, per head, in split_heads' layout (5.1): row
// b * heads + h holds head h of sentence b.
template <class T>
struct LayerCache {
    Var<T> self_keys, self_values;       // (batch * heads, t, d_h): the t target positions stepped so far
    Var<T> memory_keys, memory_values;   // (batch * heads, n, d_h): the encoder's output, projected once
    std::size_t length() const { return self_keys.shape(1); }   // t
};

// Every layer's cache, and which source positions are padding.
template <class T>
struct DecoderCache {
    std::vector<LayerCache<T>> layers;
    ch03::Mask memory_padding;   // (batch, n), or no_mask()
    std::size_t batch = 0;       // sentences (each cached tensor has batch * heads rows)
};

// Which of the three stacked projections of multi-head attention (in_proj_weight's blocks).
enum class Projection { query = 0, key = 1, value = 2 };

// (x W^T + b) for one block of in_proj (5.3), split into heads: x (batch, n, d) ->
// (batch * heads, n, d_h). The cache stores keys and values in this form.
template <class T>
Var<T> project_heads(const ch05::MultiHeadAttention<T>& layer, const Var<T>& x, Projection which);

// Multi-head attention (5.3)-(5.4) of the queries x (batch, n_q, d) over keys and values that
// are already projected and split, (batch * heads, n_k, d_h); key_padding (batch, n_k) or
// no_mask(). -> {output (batch, n_q, d) after out_proj, weights (batch, heads, n_q, n_k)}.
// With keys and values projected from y, it equals ch05::multi_head_attention(layer, x, y, y).
template <class T>
ch03::Attention<T> attend_heads(const ch05::MultiHeadAttention<T>& layer, const Var<T>& x, const Var<T>& keys,
                                const Var<T>& values, const ch03::Mask& key_padding = ch03::no_mask());

// One layer's cache before the first step: no target position yet (t = 0), and the
// cross-attention's keys and values projected from memory (batch, n, d), once.
template <class T>
LayerCache<T> start_layer_cache(const ch07::TransformerDecoderLayer<T>& layer, const Var<T>& memory);

// An empty cache for a decoder over memory (batch, n, d): no target position yet (t = 0), and
// every layer's cross-attention keys and values projected from the memory once.
template <class T>
DecoderCache<T> start_cache(const ch07::TransformerDecoder<T>& decoder, const Var<T>& memory,
                            const ch03::Mask& memory_padding = ch03::no_mask());

// What one step of the whole decoder returns.
template <class T>
struct DecoderStep {
    Var<T> output;                        // (batch, 1, d): decoder.norm of the last layer's output
    std::vector<Var<T>> cross_weights;    // per layer (batch, heads, 1, n)
    DecoderCache<T> cache;                // every layer's cache, one position longer
};

// The new target position y_t (batch, 1, d) through every layer (cached_decoder_step, (8.15))
// and the final decoder.norm: row t of decode(...) with a causal mask, computed from the
// cache instead of the whole prefix.
template <class T>
DecoderStep<T> decoder_stack_step(const ch07::TransformerDecoder<T>& decoder, const Var<T>& y_t, const DecoderCache<T>& cache);

// For beam search: new row i continues old row parents[i] (index_select on the batch axis of
// every cached tensor and of the padding). Throws std::invalid_argument if a parent is out of range.
template <class T>
DecoderCache<T> reorder(const DecoderCache<T>& cache, const std::vector<std::size_t>& parents);

}  // namespace attn::ch08
