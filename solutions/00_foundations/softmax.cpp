// Exercise 00.1: the numerically stable softmax over rows, equations (0.1)-(0.2).
#include "chapters/00_foundations/softmax.hpp"

#include "common/row_math.hpp"

#include <stdexcept>
#include <string>

namespace attn::ch00 {

// Y[i, j] = exp(X[i, j] - m_i) / sum_k exp(X[i, k] - m_i),   m_i = max_k X[i, k]       (0.2)
// X: (rows, n) -> Y: (rows, n)
template <class T>
Matrix<T> softmax(const Matrix<T>& X) {
    if (X.shape(1) == 0)
        throw std::invalid_argument("softmax: X must have at least one column, got (" +
                                    std::to_string(X.shape(0)) + ", 0)");
    // Subtracting each row's maximum changes nothing mathematically (it cancels between
    // numerator and denominator) but keeps every exponent <= 0, so exp() cannot overflow.
    // One row at a time, through the toolkit's vectorized row loops (common/row_math.hpp):
    // the matrix form below gives the same numbers, several times slower on long rows.
    const std::size_t n = X.shape(1);
    Matrix<T> Y = Matrix<T>::from_shape(X.shape());
    for (std::size_t i = 0; i < X.shape(0); ++i) {
        const T* x = &X(i, 0);   // row i of X and of Y: n numbers side by side
        T* y = &Y(i, 0);
        const T m = row_math::max(x, n);                       // m_i
        row_math::exp_minus(x, m, y, n);                       // exp(X[i, j] - m_i), each in (0, 1]
        row_math::scale(y, T(1) / row_math::sum(y, n), n);    // divided by Z_i, and Z_i >= 1
    }
    return Y;
    // The matrix form, with the per-row numbers as (rows, 1) columns that broadcast:
    //     const Matrix<T> m = row_max(X);           // materialized: safe to broadcast
    //     const Matrix<T> E = xt::exp(X - m);
    //     return E / row_sum(E);
}

// ---- instantiations: do not edit ----
template Matrix<float> softmax(const Matrix<float>&);
template Matrix<double> softmax(const Matrix<double>&);

}  // namespace attn::ch00
