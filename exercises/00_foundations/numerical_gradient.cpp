// Exercise 00.3: the numerical gradient by central differences, equation (0.6).
#include "chapters/00_foundations/numerical_gradient.hpp"

#include <stdexcept>

namespace attn::ch00 {

// dX[i, j] ~= (f(X + h E_ij) - f(X - h E_ij)) / (2 h)                                    (0.6)
// f: (rows, cols) -> scalar; X: (rows, cols) -> dX: (rows, cols)
template <class T>
Matrix<T> numerical_gradient(const ScalarFunction<T>& f, const Matrix<T>& X, T h) {
    if (!(h > T(0))) throw std::invalid_argument("numerical_gradient: the step h must be positive");
    // TODO(00.3): return dX, the shape of X: for every entry (i, j), the central difference (0.6)
    //             of f with that entry alone moved by h, every other entry as it is in X.
    //             Stuck? ./course hint 00.3
    COURSE_TODO("00.3");
}

// ---- instantiations: do not edit ----
template Matrix<float> numerical_gradient(const ScalarFunction<float>&, const Matrix<float>&, float);
template Matrix<double> numerical_gradient(const ScalarFunction<double>&, const Matrix<double>&, double);

}  // namespace attn::ch00
