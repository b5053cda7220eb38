// Exercise 06.2: the rotation that moves every position by delta, equation (6.2).
#include "chapters/06_positional_encoding/position_rotation.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace attn::ch06 {

// P[i + delta] = P[i] R(delta): per pair j, with a = delta w_j,
//   [sin((i + delta) w_j), cos((i + delta) w_j)] = [sin(i w_j), cos(i w_j)] [[cos a, -sin a],
//                                                                            [sin a,  cos a]]   (6.2)
template <class T>
Array<T> position_rotation(std::ptrdiff_t delta, std::size_t d) {
    if (d == 0 || d % 2 != 0)
        throw std::invalid_argument("position_rotation: d = " + std::to_string(d) +
                                    " must be even and positive (one rotation per pair of features)");
    Array<T> R = xt::zeros<T>({d, d});
    for (std::size_t j = 0; j < d / 2; ++j) {
        const double w = 1.0 / std::pow(10000.0, static_cast<double>(2 * j) / static_cast<double>(d));
        const double a = static_cast<double>(delta) * w;
        const std::size_t s = 2 * j, c = 2 * j + 1;   // the sine's and the cosine's feature
        // sin(x + a) = sin x cos a + cos x sin a: column s takes cos a from row s, sin a from row c.
        R(s, s) = static_cast<T>(std::cos(a));
        R(c, s) = static_cast<T>(std::sin(a));
        // cos(x + a) = cos x cos a - sin x sin a: column c takes -sin a from row s, cos a from row c.
        R(s, c) = static_cast<T>(-std::sin(a));
        R(c, c) = static_cast<T>(std::cos(a));
    }
    return R;
}

// ---- instantiations: do not edit ----
template Array<float> position_rotation(std::ptrdiff_t, std::size_t);
template Array<double> position_rotation(std::ptrdiff_t, std::size_t);

}  // namespace attn::ch06
