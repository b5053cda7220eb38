// Exercise 06.2: the rotation that moves every position by delta, equation (6.2).
#pragma once
#include "common/autodiff/var.hpp"

#include <cstddef>

namespace attn::ch06 {

// The (d, d) matrix R(delta) with, for every position i (rows are positions, so a code is a
// row vector multiplied from the right, the course's convention):
//   P[i + delta] = P[i] R(delta)                                                      (6.2)
// It is block-diagonal: one 2x2 rotation by the angle delta w_j (w_j of (6.1)) per pair j,
//   R(delta)[2j : 2j + 2, 2j : 2j + 2] = [[ cos(delta w_j), -sin(delta w_j)],
//                                         [ sin(delta w_j),  cos(delta w_j)]],
// zero elsewhere; it does not depend on i. (With column vectors, P^T[i + delta] =
// R(delta)^T P^T[i]: the transpose, which is R(-delta).) delta may be negative; R(0) is the
// identity. The angle is computed in double. Throws std::invalid_argument if d is odd or zero.
template <class T>
Array<T> position_rotation(std::ptrdiff_t delta, std::size_t d);

}  // namespace attn::ch06
