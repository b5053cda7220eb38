// The best predictions of a model with a limited reach on the counting task (see window_limit.hpp).
#include "chapters/04_self_attention/window_limit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace attn::ch04 {

namespace {

// P(count = 1 + seen + k) for k = 0 .. outside, folded into the task's classes.
std::vector<double> class_probabilities(const CountingTask& task, std::size_t seen, std::size_t outside) {
    const double p = 1.0 / static_cast<double>(task.vocab);
    std::vector<double> probabilities(task.classes, 0.0);
    for (std::size_t k = 0; k <= outside; ++k) {
        // C(outside, k) p^k (1 - p)^(outside - k), through logarithms so that no factor overflows
        const double log_binomial = std::lgamma(outside + 1.0) - std::lgamma(k + 1.0) - std::lgamma(outside - k + 1.0);
        const double probability = std::exp(log_binomial + k * std::log(p) + (outside - k) * std::log1p(-p));
        probabilities[std::min(seen + k, task.classes - 1)] += probability;   // class = count - 1, capped
    }
    return probabilities;
}

}  // namespace

Array<double> window_limited_probabilities(const CountingTask& task, std::size_t reach,
                                           const xt::xarray<std::int64_t>& tokens) {
    if (tokens.dimension() != 2 || tokens.shape(1) != task.length || task.classes < 1)
        throw std::invalid_argument("window_limited_probabilities: expected tokens of shape (batch, " +
                                    std::to_string(task.length) + ")");
    const std::size_t batch = tokens.shape(0), n = task.length;
    Array<double> probabilities = Array<double>::from_shape({batch, n, task.classes});
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t first = i >= reach ? i - reach : 0, last = std::min(n - 1, i + reach);
            std::size_t seen = 0;   // other occurrences of token i inside the window
            for (std::size_t j = first; j <= last; ++j) seen += j != i && tokens(b, j) == tokens(b, i);
            const std::vector<double> row = class_probabilities(task, seen, n - (last - first + 1));
            std::copy(row.begin(), row.end(), &probabilities(b, i, 0));
        }
    return probabilities;
}

double mean_cross_entropy(const Array<double>& probabilities, const xt::xarray<std::int64_t>& classes) {
    double total = 0;
    for (std::size_t b = 0; b < classes.shape(0); ++b)
        for (std::size_t i = 0; i < classes.shape(1); ++i)
            total -= std::log(probabilities(b, i, static_cast<std::size_t>(classes(b, i))));
    return total / static_cast<double>(classes.size());
}

}  // namespace attn::ch04
