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
    // TODO(00.1): return Y of (0.2), the shape of X: every row a probability distribution
    //             (positive, summing to 1), computed with each row's own maximum so that
    //             scores of +-1000 still give finite numbers. Stuck? ./course hint 00.1
    COURSE_TODO("00.1");
}

// ---- instantiations: do not edit ----
template Matrix<float> softmax(const Matrix<float>&);
template Matrix<double> softmax(const Matrix<double>&);

}  // namespace attn::ch00
