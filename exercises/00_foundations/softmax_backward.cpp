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
    // TODO(00.2): return dX of (0.5), the shape of Y: the gradient of the loss with respect to
    //             softmax's input, given its output Y and the upstream gradient dY, in O(n)
    //             per row (no (n, n) Jacobian). Stuck? ./course hint 00.2
    COURSE_TODO("00.2");
}

// ---- instantiations: do not edit ----
template Matrix<float> softmax_backward(const Matrix<float>&, const Matrix<float>&);
template Matrix<double> softmax_backward(const Matrix<double>&, const Matrix<double>&);

}  // namespace attn::ch00
