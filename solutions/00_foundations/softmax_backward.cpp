// Exercise 00.2: softmax's backward pass as a vector-Jacobian product, equation (0.5).
#include "chapters/00_foundations/softmax_backward.hpp"

#include "common/row_math.hpp"

#include <stdexcept>
#include <string>

namespace attn::ch00 {

// dX[i, j] = Y[i, j] * (dY[i, j] - sum_k dY[i, k] * Y[i, k])                            (0.5)
// Y, dY: (rows, n) -> dX: (rows, n)
template <class T>
Matrix<T> softmax_backward(const Matrix<T>& Y, const Matrix<T>& dY) {
    if (Y.shape(0) != dY.shape(0) || Y.shape(1) != dY.shape(1))
        throw std::invalid_argument("softmax_backward: Y and dY must have the same shape, got (" +
                                    std::to_string(Y.shape(0)) + ", " + std::to_string(Y.shape(1)) + ") and (" +
                                    std::to_string(dY.shape(0)) + ", " + std::to_string(dY.shape(1)) + ")");
    // The Jacobian of one row is diag(y) - y y^T; multiplying it by dY collapses to one
    // dot product per row, so the cost is O(n) per row instead of O(n^2).
    const std::size_t n = Y.shape(1);
    Matrix<T> dX = Matrix<T>::from_shape(Y.shape());
    for (std::size_t i = 0; i < Y.shape(0) && n > 0; ++i) {
        const T *y = &Y(i, 0), *dy = &dY(i, 0);
        T* dx = &dX(i, 0);
        const T s = row_math::dot(dy, y, n);                  // s_i = sum_k dY[i, k] Y[i, k]
        for (std::size_t j = 0; j < n; ++j) dx[j] = y[j] * (dy[j] - s);
    }
    return dX;
    // The matrix form: const Matrix<T> s = row_sum(Matrix<T>(dY * Y)); return Y * (dY - s);
    // Building J = diag(y) - y y^T for each row and multiplying gives the same numbers at
    // n times the cost, and is a good way to convince yourself of (0.4).
}

// ---- instantiations: do not edit ----
template Matrix<float> softmax_backward(const Matrix<float>&, const Matrix<float>&);
template Matrix<double> softmax_backward(const Matrix<double>&, const Matrix<double>&);

}  // namespace attn::ch00
