// Exercise 03.1: Nadaraya-Watson kernel regression as attention pooling, equations (3.1)-(3.3).
#pragma once
#include "chapters/03_queries_keys_values/attention.hpp"

namespace attn::ch03 {

// Predicts y at each query x from the training points (x_i, y_i) by a weighted average:
//   f(x) = sum_i alpha(x, x_i) y_i                                                     (3.1)
//   alpha(x, x_i) = softmax_i( -((x - x_i) w)^2 / 2 )                                  (3.3)
// The keys are the x_i, the values the y_i; w (the width's inverse) is a learnable scalar:
// a larger w makes the kernel narrower. With leave_one_out, the queries are the keys
// themselves (n_q == n_k) and query i may not look at key i: each training point is
// predicted from the others only.
// queries (n_q), keys (n_k), values (n_k), width: one entry -> {output (n_q), weights (n_q, n_k)}.
// Throws std::invalid_argument if the shapes do not fit.
template <class T>
Attention<T> gaussian_kernel_pooling(const Var<T>& queries, const Var<T>& keys, const Var<T>& values,
                                     const Var<T>& width, bool leave_one_out);

// The shape checks of gaussian_kernel_pooling (given: the exercise calls it first).
template <class T>
void check_kernel_shapes(const Var<T>& queries, const Var<T>& keys, const Var<T>& values, const Var<T>& width,
                         bool leave_one_out);

}  // namespace attn::ch03
