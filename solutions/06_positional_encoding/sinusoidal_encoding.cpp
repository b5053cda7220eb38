// Exercise 06.1: the sinusoidal position table, equation (6.1).
#include "chapters/06_positional_encoding/sinusoidal_encoding.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace attn::ch06 {

// w_j = 1 / 10000^(2j / d),   P[i, 2j] = sin(i w_j),   P[i, 2j + 1] = cos(i w_j)       (6.1)
template <class T>
Array<T> sinusoidal_encoding(std::size_t n, std::size_t d) {
    if (d == 0 || d % 2 != 0)
        throw std::invalid_argument("sinusoidal_encoding: d = " + std::to_string(d) +
                                    " must be even and positive (sines and cosines come in pairs)");
    Array<T> P = Array<T>::from_shape({n, d});
    for (std::size_t j = 0; j < d / 2; ++j) {
        const double w = 1.0 / std::pow(10000.0, static_cast<double>(2 * j) / static_cast<double>(d));
        for (std::size_t i = 0; i < n; ++i) {
            // In double: i w reaches 10^4 radians, where a float angle would be off by ~1e-3.
            const double angle = static_cast<double>(i) * w;
            P(i, 2 * j) = static_cast<T>(std::sin(angle));
            P(i, 2 * j + 1) = static_cast<T>(std::cos(angle));
        }
    }
    return P;
}

// ---- instantiations: do not edit ----
template Array<float> sinusoidal_encoding(std::size_t, std::size_t);
template Array<double> sinusoidal_encoding(std::size_t, std::size_t);

}  // namespace attn::ch06
