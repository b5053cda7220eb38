// Exercise 01.3: greedy decoding, equation (1.9) of the lesson.
#pragma once
#include "common/autodiff/var.hpp"
#include "common/tensor.hpp"

#include <functional>
#include <vector>

namespace attn::ch01 {

// One decoder step for a whole batch: given each sequence's previous token (batch), returns
// the scores of the next token (batch, vocab). It keeps its own state (the hidden state,
// attention caches) between calls, so every model -- chapter 01's, 02's, 07's -- can be
// decoded by the same loop.
template <class T>
using DecodeStep = std::function<Var<T>(const IndexVector& previous_tokens)>;

// Starting from <bos> for every sequence, repeatedly feeds each sequence's own most likely
// token back in (y_t = argmax_v logits[v]) until it produces <eos> or has max_len tokens.  (1.9)
// Returns one token list per sequence, without <bos> and <eos>. Once every sequence has
// finished, no further step is taken.
template <class T>
std::vector<std::vector<std::int64_t>> greedy_decode(const DecodeStep<T>& step, std::size_t batch,
                                                     std::size_t max_len, std::int64_t bos_id, std::int64_t eos_id);

}  // namespace attn::ch01
