// Exercise 05.2: merge the heads back, the inverse of the split, equation (5.2).
#pragma once
#include "common/autodiff/var.hpp"

namespace attn::ch05 {

// The exact inverse of split_heads (5.1): x (batch * heads, n, d_h) -> (batch, n, heads d_h),
// the heads of each position concatenated in order:
//   merge(x)[b, i, h d_h + k] = x[b * heads + h, i, k]                                  (5.2)
// so merge_heads(split_heads(x, heads), heads) == x. Built from autodiff ops. Throws
// std::invalid_argument, naming the shape, if x is not 3-D or its first axis is not a
// multiple of heads.
template <class T>
Var<T> merge_heads(const Var<T>& x, std::size_t heads);

}  // namespace attn::ch05
