// Exercise 03.3: the mask of valid lengths, equation (3.8).
#pragma once
#include "chapters/03_queries_keys_values/attention.hpp"

#include <cstdint>

namespace attn::ch03 {

// blocked[b, i, j] = (j >= len), positions counted from 0, where len = valid_lens[b] (shape
// (batch): the same for every query) or valid_lens[b, i] (shape (batch, n_q): one length
// per query). The keys past a sentence's end are padding.                              (3.8)
// -> Mask (batch, n_q, n_k). Throws std::invalid_argument if the lengths have another shape
// or a length is outside [0, n_k].
Mask length_mask(const xt::xarray<std::int64_t>& valid_lens, std::size_t n_q, std::size_t n_k);

}  // namespace attn::ch03
