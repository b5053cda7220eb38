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
    // TODO(06.2): build the (d, d) matrix R(delta) of (6.2) with P[i + delta] = P[i] R(delta)
    //             (row vectors): zero except one 2x2 rotation by delta w_j on the diagonal
    //             block of each pair j, laid out so that the row vector [sin x, cos x] times
    //             the block is [sin(x + a), cos(x + a)]. Refuse (std::invalid_argument) a d
    //             that is odd or zero. Start from Array<T> R = xt::zeros<T>({d, d});
    //             Hint: ./course hint 06.2
    COURSE_TODO("06.2");
}

// ---- instantiations: do not edit ----
template Array<float> position_rotation(std::ptrdiff_t, std::size_t);
template Array<double> position_rotation(std::ptrdiff_t, std::size_t);

}  // namespace attn::ch06
