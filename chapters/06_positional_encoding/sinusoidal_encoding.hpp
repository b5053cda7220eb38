// Exercise 06.1: the sinusoidal position table, equation (6.1).
#pragma once
#include "common/autodiff/var.hpp"

namespace attn::ch06 {

// The table of the Transformer's positional encoding: row i is the code of position i
// (positions count from 0), and the d features come in d / 2 pairs, pair j a sine and a
// cosine of one frequency, the frequencies falling geometrically from 1 to about 1/10000:
//   w_j = 1 / 10000^(2j / d),   P[i, 2j] = sin(i w_j),   P[i, 2j + 1] = cos(i w_j)     (6.1)
// -> P (n, d). The angle i w_j is computed in double whatever T is: at position 10000 a
// float angle is off by about 1e-3 radians, and so would be its sine. Throws
// std::invalid_argument if d is odd or zero (the features must pair up).
template <class T>
Array<T> sinusoidal_encoding(std::size_t n, std::size_t d);

}  // namespace attn::ch06
