// Exercise 07.1: layer normalisation, equation (7.1).
#pragma once
#include "common/autodiff/var.hpp"

namespace attn::ch07 {

// Normalises every slice of x over its last `normalized_dims` axes to mean 0 and variance 1,
// then scales and shifts it:
//   mu = mean(x over the slice),  var = mean((x - mu)^2 over the slice)   (biased, as PyTorch)
//   y = (x - mu) / sqrt(var + eps) * weight + bias                                    (7.1)
// weight and bias have the shape of those last axes. Statistics are per slice (one position
// of one sequence), never across the batch: that is what makes it layer, not batch,
// normalisation. Built from autodiff ops, so gradients flow to x, weight and bias. Throws
// std::invalid_argument if normalized_dims is 0 or larger than x's rank, or if the last axes
// of x do not match weight's shape or bias differs.
template <class T>
Var<T> layer_norm(const Var<T>& x, const Var<T>& weight, const Var<T>& bias, std::size_t normalized_dims,
                  double eps = 1e-5);

}  // namespace attn::ch07
