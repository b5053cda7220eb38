// Exercise 00.3: the numerical gradient by central differences, equation (0.6).
#include "chapters/00_foundations/numerical_gradient.hpp"

#include <stdexcept>

namespace attn::ch00 {

// dX[i, j] ~= (f(X + h E_ij) - f(X - h E_ij)) / (2 h)                                    (0.6)
// f: (rows, cols) -> scalar; X: (rows, cols) -> dX: (rows, cols)
template <class T>
Matrix<T> numerical_gradient(const ScalarFunction<T>& f, const Matrix<T>& X, T h) {
    if (!(h > T(0))) throw std::invalid_argument("numerical_gradient: the step h must be positive");
    Matrix<T> X_moved = X;                         // one copy, nudged one entry at a time
    Matrix<T> dX = xt::zeros<T>(X.shape());        // (rows, cols)
    for (std::size_t i = 0; i < X.shape(0); ++i) {
        for (std::size_t j = 0; j < X.shape(1); ++j) {
            X_moved(i, j) = X(i, j) + h;
            const T f_plus = f(X_moved);
            X_moved(i, j) = X(i, j) - h;
            const T f_minus = f(X_moved);
            X_moved(i, j) = X(i, j);               // put it back before nudging the next entry
            // Central differences cancel the h^2 term of the Taylor series: error O(h^2),
            // where the one-sided (f(X + h E) - f(X)) / h is only O(h).
            dX(i, j) = (f_plus - f_minus) / (T(2) * h);
        }
    }
    return dX;
}

// ---- instantiations: do not edit ----
template Matrix<float> numerical_gradient(const ScalarFunction<float>&, const Matrix<float>&, float);
template Matrix<double> numerical_gradient(const ScalarFunction<double>&, const Matrix<double>&, double);

}  // namespace attn::ch00
