// Exercise 02.2: softmax over the valid positions only, equation (2.3) of the lesson.
#pragma once
#include "common/autodiff/var.hpp"

#include <cstdint>

namespace attn::ch02 {

// weights[b, i, j] = softmax over j < len of scores[b, i, :], and exactly 0 for j >= len,
// where len = valid_lens[b] (shape (batch): the same for every query) or valid_lens[b, i]
// (shape (batch, n_q): one length per query, as chapter 03's masks need).              (2.3)
// A row with len = 0 gets all-zero weights: no NaN, and no weight on padding (docs/design.md,
// "Masks"). scores: (batch, n_q, n_k) -> weights (batch, n_q, n_k).
// Throws std::invalid_argument if the shapes do not fit or a length is outside [0, n_k].
template <class T>
Var<T> masked_softmax(const Var<T>& scores, const xt::xarray<std::int64_t>& valid_lens);

}  // namespace attn::ch02
