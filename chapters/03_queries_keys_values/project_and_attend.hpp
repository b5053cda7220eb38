// Exercise 03.5: the attention layer with learned projections, equation (3.10).
#pragma once
#include "chapters/03_queries_keys_values/attention_layer.hpp"

namespace attn::ch03 {

//   output, weights = attention(Q W_q^T, K W_k^T, V W_v^T, blocked)                     (3.10)
// with scaled dot-product attention (3.5)-(3.7). queries (batch, n_q, query_size), keys
// (batch, n_k, key_size), values (batch, n_k, value_size) -> {output (batch, n_q, d_v),
// weights (batch, n_q, n_k)}.
template <class T>
Attention<T> project_and_attend(const AttentionLayer<T>& layer, const Var<T>& queries, const Var<T>& keys,
                                const Var<T>& values, const Mask& blocked = no_mask());

}  // namespace attn::ch03
