// Exercise 03.2: scaled dot-product attention with a mask, equations (3.5)-(3.7).
#pragma once
#include "chapters/03_queries_keys_values/attention.hpp"

namespace attn::ch03 {

//   scores = Q K^T / sqrt(d)                                                           (3.5)
//   weights = softmax over the keys of the scores, with blocked keys left out          (3.6)
//   output = weights V                                                                 (3.7)
// queries (batch, n_q, d), keys (batch, n_k, d), values (batch, n_k, d_v), blocked (batch,
// n_q, n_k) or no_mask() -> {output (batch, n_q, d_v), weights (batch, n_q, n_k)}.
// A blocked key gets exactly zero weight (and zero gradient); a query whose keys are all
// blocked gets all-zero weights, so its output is zero: never NaN, never a uniform average
// over keys it may not see. Throws std::invalid_argument if the shapes do not fit.
template <class T>
Attention<T> scaled_dot_product_attention(const Var<T>& queries, const Var<T>& keys, const Var<T>& values,
                                          const Mask& blocked = no_mask());

}  // namespace attn::ch03
