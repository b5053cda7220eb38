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
    // TODO(08.6): return the best hypothesis found by (8.16): keep the beam_size best prefixes
    //             by total log-probability (log_softmax of step's logits, added along the
    //             tokens), compared over all rows' extensions at once; a prefix that ends in
    //             eos_id is finished and leaves the beam; tell step which row each new row
    //             extends (parents); compare hypotheses by (8.17); stop when none is alive or
    //             none alive could still overtake the best finished hypothesis, or after
    //             max_len tokens, as the contract in beam_search.hpp says. Throw
    //             std::invalid_argument if beam_size or max_len is 0, or length_penalty < 0.
    //             The tools: log_softmax(step(tokens, parents)).value() is a plain (rows,
    //             vocab) array of log-probabilities, read as scores(r, v); std::pow for
    //             (8.17); the tokens to feed are an IndexVector, e.g.
    //             IndexVector tokens = IndexVector::from_shape({n}).
    //             Stuck? ./course hint 08.6
    COURSE_TODO("08.6");
}

// ---- instantiations: do not edit ----
template Hypothesis beam_search(const BeamStep<float>&, std::size_t, std::size_t, std::int64_t, std::int64_t, double);
template Hypothesis beam_search(const BeamStep<double>&, std::size_t, std::size_t, std::int64_t, std::int64_t, double);

}  // namespace attn::ch08
