// Exercise 00.1: the numerically stable softmax, equations (0.1)-(0.2) of the lesson.
#pragma once
#include "common/tensor.hpp"

namespace attn::ch00 {

// Softmax over each row, computed stably:
//   Y[i, j] = exp(X[i, j] - m_i) / sum_k exp(X[i, k] - m_i),   m_i = max_k X[i, k]     (0.2)
// X: (rows, n) -> Y: (rows, n). Each row of Y is a probability distribution; inputs of
// +-1000 give finite results. Throws std::invalid_argument if X has no columns.
template <class T>
Matrix<T> softmax(const Matrix<T>& X);

}  // namespace attn::ch00
