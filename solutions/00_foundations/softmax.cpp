// Exercise 00.1: the numerically stable softmax over rows, equations (0.1)-(0.2).
#include "chapters/00_foundations/softmax.hpp"

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
    const Matrix<T> m = row_max(X);               // (rows, 1), materialized: safe to broadcast
    const Matrix<T> E = xt::exp(X - m);           // (rows, n), entries in (0, 1]
    const Matrix<T> Z = row_sum(E);               // (rows, 1), each >= 1: no division by zero
    return E / Z;
    // Alternative: a loop over rows with 1-D views (y = exp(x - max(x)); y /= sum(y)) is
    // as fast and reads like the formula for one vector; the matrix form shows the broadcast.
}

// ---- instantiations: do not edit ----
template Matrix<float> softmax(const Matrix<float>&);
template Matrix<double> softmax(const Matrix<double>&);

}  // namespace attn::ch00
