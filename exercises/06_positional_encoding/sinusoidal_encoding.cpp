// Exercise 06.1: the sinusoidal position table, equation (6.1).
#include "chapters/06_positional_encoding/sinusoidal_encoding.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace attn::ch06 {

// w_j = 1 / 10000^(2j / d),   P[i, 2j] = sin(i w_j),   P[i, 2j + 1] = cos(i w_j)       (6.1)
template <class T>
Array<T> sinusoidal_encoding(std::size_t n, std::size_t d) {
    // TODO(06.1): build the (n, d) table of (6.1): for each pair j, the frequency
    //             w_j = 1 / 10000^(2j / d); column 2j holds sin(i w_j) and column 2j + 1
    //             cos(i w_j), for the positions i = 0 .. n - 1. Compute the angle in double.
    //             Refuse (std::invalid_argument) a d that is odd or zero. Array<T> is an
    //             xt::xarray<T>: start from Array<T> P = xt::zeros<T>({n, d});
    //             Hint: ./course hint 06.1
    COURSE_TODO("06.1");
}

// ---- instantiations: do not edit ----
template Array<float> sinusoidal_encoding(std::size_t, std::size_t);
template Array<double> sinusoidal_encoding(std::size_t, std::size_t);

}  // namespace attn::ch06
