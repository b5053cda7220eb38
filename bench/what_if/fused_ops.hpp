// Fused forms of three exercise compositions, for one measurement: how much faster the
// Transformer step would be if the reference build called fused kernels instead of composing
// elementary ops (bench_transformer_fused; bench/README.md, "What fused exercise kernels would
// buy"). No chapter uses them: the reference solutions compose the ops the lessons teach.
#pragma once
#include "common/autodiff/var.hpp"

#include "common/xtensor_compat.hpp"

namespace attn::what_if {

// Exercise 03.2's weights, softmax(scores + penalty) * allowed, over the last axis in one op
// that calls chapter 00's softmax and its backward (exercises 00.1, 00.2) as the composition
// does, without the penalty and allowed tensors, the addition, the product and their
// gradients. The same numbers bit for bit as long as every blocked key's exponential
// underflows to 0, as it does for scores far smaller than the penalty of 1e9 (a blocked score
// near 1e9 would get a gradient in the composition and none here). heads > 1: the scores are
// (batch * heads, n_q, n_k) and blocked is (batch, n_q, n_k), one mask for every head of a
// sequence (split_heads' order), so that it is never repeated. An empty mask blocks nothing.
template <class T>
Var<T> masked_softmax(const Var<T>& scores, const xt::xarray<bool>& blocked, std::size_t heads = 1);

// Exercise 07.1 over the last axis in one op: y = (x - mu) / sqrt(var + eps) * weight + bias,
// one pass per row forward and one backward, with
//   dx = rstd (dxhat - mean(dxhat) - xhat mean(dxhat xhat)),  dxhat = dy weight,
//   dweight = sum over rows of dy xhat,  dbias = sum over rows of dy.
// Its sums run in another order than the composition's, so it agrees to rounding, not bit for bit.
template <class T>
Var<T> layer_norm(const Var<T>& x, const Var<T>& weight, const Var<T>& bias, double eps);

}  // namespace attn::what_if
