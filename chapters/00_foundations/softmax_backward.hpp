// Exercise 00.2: the backward pass of softmax as a vector-Jacobian product, equation (0.5).
#pragma once
#include "common/tensor.hpp"

namespace attn::ch00 {

// Given Y = softmax(X) (rows) and the upstream gradient dY = dL/dY, returns dX = dL/dX:
//   dX[i, j] = Y[i, j] * (dY[i, j] - sum_k dY[i, k] * Y[i, k])                          (0.5)
// Y, dY: (rows, n) -> dX: (rows, n). Never builds the (n, n) Jacobian.
// Throws std::invalid_argument if the shapes of Y and dY differ.
template <class T>
Matrix<T> softmax_backward(const Matrix<T>& Y, const Matrix<T>& dY);

}  // namespace attn::ch00
