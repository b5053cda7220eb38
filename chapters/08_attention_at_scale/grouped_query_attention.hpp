// Exercise 08.4: grouped-query attention, H query heads sharing G key/value heads, equations (8.11)-(8.13).
#pragma once
#include "chapters/08_attention_at_scale/grouped_query_layer.hpp"

namespace attn::ch08 {

// With d_h = d / H and r = H / G query heads per key/value head:
//   Q = query W_q^T + b_q, split into H heads;  K = key W_k^T + b_k and V = value W_v^T + b_v,
//   each split into G heads (chapter 05's split_heads)                                    (8.11)
//   head_h, A_h = attention(Q_h, K_g, V_g, blocked) with g = floor(h / r): consecutive
//   query heads share a key/value head, scores scaled by 1/sqrt(d_h) (chapter 03)          (8.12)
//   output = concat(head_0, ..., head_{H-1}) W_o^T + b_o     (merge_heads, then o_proj)    (8.13)
// (PyTorch's repeat_interleave of the key/value heads, as in scaled_dot_product_attention
// with enable_gqa=True.) query (batch, n_q, d), key (batch, n_k, d), value (batch, n_k, d);
// key_padding (batch, n_k) and attention_mask (n_q, n_k) or (batch, n_q, n_k), boolean,
// true = blocked, either may be ch03::no_mask(); a key blocked by either is blocked for every
// head (chapter 05's combine_masks). -> {output (batch, n_q, d), head_weights (batch, H, n_q,
// n_k)}. A query whose keys are all blocked gets all-zero weights and an output of b_o alone
// (chapter 03's rule). With G = H this is chapter 05's multi_head_attention. Throws
// std::invalid_argument if the shapes do not fit.
template <class T>
GroupedQueryOutput<T> grouped_query_attention(const GroupedQueryAttention<T>& layer, const Var<T>& query,
                                              const Var<T>& key, const Var<T>& value,
                                              const ch03::Mask& key_padding = ch03::no_mask(),
                                              const ch03::Mask& attention_mask = ch03::no_mask());

}  // namespace attn::ch08
