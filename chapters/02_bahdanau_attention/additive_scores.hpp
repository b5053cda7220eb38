// Exercise 02.1: the additive attention score, equation (2.2) of the lesson.
#pragma once
#include "common/autodiff/var.hpp"

namespace attn::ch02 {

// scores[b, i, j] = w_v . tanh(q_i + k_j)                                             (2.2)
// with q = W_q queries and k = W_k keys already applied:
//   queries_proj (batch, n_q, hidden), keys_proj (batch, n_k, hidden), w_v (1, hidden)
//   -> scores (batch, n_q, n_k)
// Throws std::invalid_argument if the shapes do not fit.
template <class T>
Var<T> additive_scores(const Var<T>& queries_proj, const Var<T>& keys_proj, const Var<T>& w_v);

}  // namespace attn::ch02
