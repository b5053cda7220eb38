// The best any model can do on the counting task when it sees only the tokens within `reach`
// positions of each position, as part 4's convolutions do: worked out from how the task draws
// its tokens, not trained. Position i sees k_in other occurrences of its token inside its
// window; each of the m_out positions outside holds the same token with probability 1/vocab,
// independently of everything in the window, so
//   P(count = 1 + k_in + k | window) = C(m_out, k) (1/vocab)^k (1 - 1/vocab)^(m_out - k)
// (counts above task.classes fall into the last class). No model with that reach can predict
// better on average: these are the probabilities of the labels given all it can see.
#pragma once
#include "chapters/04_self_attention/counting_task.hpp"
#include "common/autodiff/var.hpp"

namespace attn::ch04 {

// tokens (batch, length) -> class probabilities (batch, length, classes). reach 0 sees the
// token alone: the best guess of a model that compares no tokens.
Array<double> window_limited_probabilities(const CountingTask& task, std::size_t reach,
                                           const xt::xarray<std::int64_t>& tokens);

// The mean over positions of -log probabilities(b, i, classes(b, i)).
double mean_cross_entropy(const Array<double>& probabilities, const xt::xarray<std::int64_t>& classes);

}  // namespace attn::ch04
