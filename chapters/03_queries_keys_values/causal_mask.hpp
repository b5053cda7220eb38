// Exercise 03.4: the causal mask, equation (3.9).
#pragma once
#include "chapters/03_queries_keys_values/attention.hpp"

namespace attn::ch03 {

// blocked[b, i, j] = (j > i): position i may look at itself and every earlier position,
// never at a later one (a decoder must not read the words it has yet to produce).     (3.9)
// -> Mask (batch, n, n), the same for every batch entry.
Mask causal_mask(std::size_t batch, std::size_t n);

}  // namespace attn::ch03
