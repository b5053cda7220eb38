// Exercise 00.3: the numerical gradient by central differences, equation (0.6).
#pragma once
#include "common/tensor.hpp"

#include <functional>

namespace attn::ch00 {

template <class T>
using ScalarFunction = std::function<T(const Matrix<T>&)>;

// dX[i, j] ~= (f(X + h E_ij) - f(X - h E_ij)) / (2 h)                                   (0.6)
// where E_ij is 1 at (i, j) and 0 elsewhere. f: (rows, cols) -> scalar; returns (rows, cols).
// The error shrinks like h^2; use double and h around 1e-5. Throws std::invalid_argument
// if h is not positive.
template <class T>
Matrix<T> numerical_gradient(const ScalarFunction<T>& f, const Matrix<T>& X, T h);

}  // namespace attn::ch00
