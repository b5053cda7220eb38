// Exercise 05.1: split the features into heads, equation (5.1).
#pragma once
#include "common/autodiff/var.hpp"

namespace attn::ch05 {

// x (batch, n, d) -> (batch * heads, n, d / heads): entry b * heads + h holds head h of
// batch entry b, whose features are the contiguous block [h d_h, (h + 1) d_h), d_h = d / heads:
//   split(x)[b * heads + h, i, k] = x[b, i, h d_h + k]                                  (5.1)
// (PyTorch's layout: view (batch, n, heads, d_h), transpose to (batch, heads, n, d_h),
// reshape.) Built from autodiff ops, so gradients flow back to x. Throws
// std::invalid_argument, naming the shape, if x is not 3-D or d is not a multiple of heads.
template <class T>
Var<T> split_heads(const Var<T>& x, std::size_t heads);

}  // namespace attn::ch05
