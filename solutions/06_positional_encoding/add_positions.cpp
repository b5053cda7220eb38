// Exercise 06.3: scaled embeddings plus positions, equation (6.3).
#include "chapters/06_positional_encoding/add_positions.hpp"

#include "chapters/06_positional_encoding/sinusoidal_encoding.hpp"
#include "common/autodiff/ops.hpp"

#include <cmath>
#include <stdexcept>

namespace attn::ch06 {

// X'[b, i] = sqrt(d) X[b, i] + P[i]                                                    (6.3)
template <class T>
Var<T> add_positions(const Var<T>& X) {
    if (X.dim() != 3 || X.shape(2) % 2 != 0)
        throw std::invalid_argument("add_positions: X " + shape_string(X.shape()) +
                                    " must be (batch, n, d) with d even");
    const std::size_t n = X.shape(1), d = X.shape(2);
    // A constant: no gradient flows into the table. Its (n, d) shape broadcasts over the batch.
    const Var<T> P = constant<T>(sinusoidal_encoding<T>(n, d));
    return X * static_cast<T>(std::sqrt(static_cast<double>(d))) + P;
}

// ---- instantiations: do not edit ----
template Var<float> add_positions(const Var<float>&);
template Var<double> add_positions(const Var<double>&);

}  // namespace attn::ch06
