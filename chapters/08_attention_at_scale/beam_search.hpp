// Exercise 08.6: beam search, equations (8.16)-(8.17).
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
// leaves the beam. A finished one still takes one of the beam_size places: the next step
// extends the others alone (the beam is not refilled from the extensions ranked below). (8.16)
// Hypotheses are compared by their total divided by a power of their length (tokens, <eos>
// included), total / length^length_penalty; the default 0 compares the totals themselves.   (8.17)
// (The alive prefixes of one step all have the same length, so the ranking within the beam is
// by total either way.) Stops when no prefix is alive, or no alive prefix could still overtake
// the best finished hypothesis, or after max_len tokens (prefixes still alive then count as
// they are). Log-probabilities only fall and no hypothesis is longer than max_len, so the best
// an alive prefix of total s can still reach is s / max_len^length_penalty: the search stops
// when that is no better than the best finished hypothesis (with 0, when s is no better than
// its total). However many hypotheses have finished, the search goes on while a better prefix
// may be alive. Returns the best hypothesis by (8.17).
// Ties (equal scores, as two equally likely words give) go to the earlier: the extensions are
// ranked from the order row by row, token by token, with a stable sort (of two equal ones the
// earlier row, then the smaller token id, ranks first), and of equally good hypotheses the
// first in finishing order (then in the beam's order) is returned. beam_size 1 then picks
// what chapter 01's greedy_decode picks (the first largest score).
// beam_size 1 is greedy decoding. Throws std::invalid_argument if beam_size or max_len is 0,
// or length_penalty is negative (or not a number).
template <class T>
Hypothesis beam_search(const BeamStep<T>& step, std::size_t beam_size, std::size_t max_len, std::int64_t bos_id,
                       std::int64_t eos_id, double length_penalty = 0);

}  // namespace attn::ch08
