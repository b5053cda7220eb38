// Exercise 05.3: the multi-head attention forward, equations (5.3)-(5.5).
#pragma once
#include "chapters/05_multi_head_attention/multi_head_layer.hpp"

namespace attn::ch05 {

// With W_q, W_k, W_v the three (d, d) blocks of in_proj_weight, b_q, b_k, b_v of in_proj_bias,
// d_h = d / heads, and head h taking features [h d_h, (h + 1) d_h) (split_heads, (5.1)):
//   Q_h = (query W_q^T + b_q)_h,  K_h = (key W_k^T + b_k)_h,  V_h = (value W_v^T + b_v)_h   (5.3)
//   head_h, A_h = attention(Q_h, K_h, V_h, blocked), scores scaled by 1/sqrt(d_h)   (chapter 03's (3.5)-(3.7))
//   output = concat(head_0, ..., head_{heads-1}) W_o^T + b_o     (merge_heads, (5.2))   (5.4)
//   averaged weights = (1 / heads) sum_h A_h                                             (5.5)
// query (batch, n_q, d), key (batch, n_k, d), value (batch, n_k, d); key_padding (batch, n_k)
// and attention_mask (n_q, n_k) or (batch, n_q, n_k), boolean, true = blocked, either may be
// ch03::no_mask(); a key blocked by either is blocked for every head (combine_masks).
// -> {output (batch, n_q, d), head_weights (batch, heads, n_q, n_k), averaged_weights
// (batch, n_q, n_k)}. A query whose keys are all blocked gets all-zero weights and an output
// of b_o alone (chapter 03's rule), where PyTorch returns NaN. Throws std::invalid_argument
// if the shapes do not fit.
template <class T>
MultiHeadOutput<T> multi_head_attention(const MultiHeadAttention<T>& layer, const Var<T>& query, const Var<T>& key,
                                        const Var<T>& value, const ch03::Mask& key_padding = ch03::no_mask(),
                                        const ch03::Mask& attention_mask = ch03::no_mask());

}  // namespace attn::ch05
