// Exercise 04.2: the local-window mask, equation (4.4).
#pragma once
#include "chapters/03_queries_keys_values/attention.hpp"

namespace attn::ch04 {

// Restricted (local) self-attention for long inputs such as speech: position i may look at
// position j only if they are at most `window` apart, on either side:
//   blocked[b, i, j] = |i - j| > window                                                (4.4)
// window 0: each position sees only itself; window >= n - 1: every position sees every
// other (nothing is blocked). -> ch03::Mask (batch, n, n), the same for every batch entry,
// ready for chapter 03's scaled_dot_product_attention (true = blocked).
ch03::Mask local_window_mask(std::size_t batch, std::size_t n, std::size_t window);

}  // namespace attn::ch04
