// Exercise 08.6: beam search, equations (8.16)-(8.17).
#include "chapters/08_attention_at_scale/beam_search.hpp"

#include "common/autodiff/ops.hpp"

#include "common/xtensor_compat.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace attn::ch08 {

// score(prefix + v) = score(prefix) + log p(v | prefix); the beam_size best extensions of
// all alive prefixes survive, and those that end in <eos> leave the beam, finished.      (8.16)
// Hypotheses compare by score / length^length_penalty.                                  (8.17)
template <class T>
Hypothesis beam_search(const BeamStep<T>& step, std::size_t beam_size, std::size_t max_len, std::int64_t bos_id,
                       std::int64_t eos_id, double length_penalty) {
    if (beam_size == 0 || max_len == 0)
        throw std::invalid_argument("beam_search: beam_size and max_len must be at least 1, got beam_size " +
                                    std::to_string(beam_size) + " and max_len " + std::to_string(max_len));
    if (!(length_penalty >= 0))
        throw std::invalid_argument("beam_search: length_penalty must be 0 or more, got " + std::to_string(length_penalty));
    struct Extension {
        double score;
        std::size_t row;
        std::int64_t token;
    };
    std::vector<Hypothesis> alive(1), finished;   // one empty prefix: just <bos>
    IndexVector previous = {bos_id};
    std::vector<std::size_t> parents = {0};
    const auto normalised = [length_penalty](const Hypothesis& h) {                          // (8.17)
        return h.log_probability / std::pow(static_cast<double>(h.tokens.size()), length_penalty);
    };
    const auto best_of = [&](const std::vector<Hypothesis>& hypotheses) {
        return *std::max_element(hypotheses.begin(), hypotheses.end(), [&](const Hypothesis& a, const Hypothesis& b) {
            return normalised(a) < normalised(b);   // the first of equals wins
        });
    };
    for (std::size_t t = 0; t < max_len; ++t) {
        const Var<T> log_p = log_softmax(step(previous, parents));   // (rows, vocab)
        std::vector<Extension> extensions;                            // every alive row times every token
        for (std::size_t row = 0; row < alive.size(); ++row)
            for (std::size_t v = 0; v < log_p.shape(1); ++v)
                extensions.push_back({alive[row].log_probability + double(log_p.value()(row, v)), row,
                                      static_cast<std::int64_t>(v)});
        // The best over all rows at once, not per row: a row may win every place.
        std::stable_sort(extensions.begin(), extensions.end(),
                         [](const Extension& a, const Extension& b) { return a.score > b.score; });
        std::vector<Hypothesis> next_alive;
        std::vector<std::int64_t> next_previous;
        parents.clear();
        for (std::size_t k = 0; k < std::min(beam_size, extensions.size()); ++k) {
            const Extension& e = extensions[k];
            Hypothesis extended = alive[e.row];
            extended.tokens.push_back(e.token);
            extended.log_probability = e.score;
            if (e.token == eos_id) {
                finished.push_back(extended);   // done: it leaves the beam and is never extended
            } else {
                next_alive.push_back(extended);
                next_previous.push_back(e.token);
                parents.push_back(e.row);       // so the model can reorder its state to match
            }
        }
        alive = next_alive;
        previous = xt::adapt(next_previous, {next_previous.size()});
        if (alive.empty()) return best_of(finished);   // every kept extension ended in <eos>
        // Log-probabilities only fall and nothing grows longer than max_len, so the best an
        // alive prefix can still reach is its total over max_len^length_penalty (its total
        // itself with no penalty); how many have finished does not matter.
        const double reachable = best_of(alive).log_probability / std::pow(static_cast<double>(max_len), length_penalty);
        if (!finished.empty() && reachable <= normalised(best_of(finished))) return best_of(finished);
    }
    // max_len reached: the prefixes still alive compete as they are.
    finished.insert(finished.end(), alive.begin(), alive.end());
    return best_of(finished);
    // Alternative: GNMT's penalty ((5 + length) / 6)^alpha instead of length^alpha weighs the
    // first words less; any penalty that grows with the length keeps the bound above valid.
}

// ---- instantiations: do not edit ----
template Hypothesis beam_search(const BeamStep<float>&, std::size_t, std::size_t, std::int64_t, std::int64_t, double);
template Hypothesis beam_search(const BeamStep<double>&, std::size_t, std::size_t, std::int64_t, std::int64_t, double);

}  // namespace attn::ch08
