// Exercise 08.6: beam search, equation (8.16).
#pragma once
#include "common/autodiff/var.hpp"
#include "common/tensor.hpp"

#include <cstdint>
#include <functional>
#include <vector>

namespace attn::ch08 {

// One decoder step over the hypotheses alive at this step (one row each, for one source
// sentence): previous_tokens (rows) is each row's last token, parents (rows) the row of the
// previous step each one extends, so that the model can reorder its state (caches) before
// stepping. Returns the scores (logits) of the next token, (rows, vocab). The first call has
// one row, <bos>, and parents {0}.
template <class T>
using BeamStep = std::function<Var<T>(const IndexVector& previous_tokens, const std::vector<std::size_t>& parents)>;

struct Hypothesis {
    std::vector<std::int64_t> tokens;   // without <bos>, ending with <eos> if it finished
    double log_probability = 0;         // sum over its tokens (eos included) of log p(token | prefix)
};

// Keeps the beam_size best prefixes by total log-probability at each step: every alive
// prefix is extended by every token, score(prefix + v) = score(prefix) + log p(v | prefix),
// and the best beam_size extensions survive; one that ends in <eos> is finished and
// leaves the beam.                                                                      (8.16)
// Stops when no prefix is alive, or no alive prefix scores above the best finished
// hypothesis (log-probabilities only fall, so none of them can overtake it), or after
// max_len tokens (prefixes still alive then count as they are). However many hypotheses
// have finished, the search goes on while a better prefix is alive. Returns the hypothesis
// of highest log_probability.
// Ties (equal scores, as two equally likely words give) go to the earlier: the extensions are
// ranked from the order row by row, token by token, with a stable sort (of two equal ones the
// earlier row, then the smaller token id, ranks first), and of equally good hypotheses the
// first in finishing order (then in the beam's order) is returned. beam_size 1 then picks
// what chapter 01's greedy_decode picks (the first largest score).
// beam_size 1 is greedy decoding. Throws std::invalid_argument if beam_size or max_len is 0.
template <class T>
Hypothesis beam_search(const BeamStep<T>& step, std::size_t beam_size, std::size_t max_len, std::int64_t bos_id,
                       std::int64_t eos_id);

}  // namespace attn::ch08
