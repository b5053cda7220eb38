// The previous-token task (see previous_token_task.hpp).
#include "chapters/06_positional_encoding/previous_token_task.hpp"

#include <algorithm>
#include <stdexcept>

namespace attn::ch06 {

TokenBatch make_token_batch(const PreviousTokenTask& task, std::size_t batch, std::size_t shortest, std::size_t longest,
                            Rng& rng) {
    std::vector<std::vector<std::int64_t>> sequences(batch);
    for (auto& sequence : sequences) {
        sequence.resize(shortest + rng.below(longest - shortest + 1));
        for (auto& token : sequence) token = static_cast<std::int64_t>(rng.below(task.letters));
    }
    return label_token_batch(task, sequences);
}

TokenBatch label_token_batch(const PreviousTokenTask& task, const std::vector<std::vector<std::int64_t>>& sequences) {
    if (sequences.empty()) throw std::invalid_argument("label_token_batch: no sequences");
    std::size_t n = 0;
    for (const auto& sequence : sequences) {
        if (sequence.empty()) throw std::invalid_argument("label_token_batch: an empty sequence");
        for (const std::int64_t token : sequence)
            if (token < 0 || token >= static_cast<std::int64_t>(task.letters))
                throw std::invalid_argument("label_token_batch: token " + std::to_string(token) + " is not a letter 0-" +
                                            std::to_string(task.letters - 1));
        n = std::max(n, sequence.size());
    }
    const std::size_t batch = sequences.size();
    TokenBatch out;
    out.tokens = xt::zeros<std::int64_t>({batch, n});
    out.targets = xt::xarray<std::int64_t>::from_shape({batch, n});
    out.targets.fill(ignored_target);
    out.padding = xt::ones<bool>({batch, n});
    for (std::size_t b = 0; b < batch; ++b) {
        const auto& sequence = sequences[b];
        out.lengths.push_back(sequence.size());
        for (std::size_t i = 0; i < sequence.size(); ++i) {
            out.tokens(b, i) = sequence[i];
            out.targets(b, i) = i == 0 ? task.nothing() : sequence[i - 1];
            out.padding(b, i) = false;
        }
    }
    return out;
}

std::string token_name(const PreviousTokenTask& task, std::int64_t token) {
    if (token == task.nothing()) return "^";
    return std::string(1, static_cast<char>('a' + token));
}

}  // namespace attn::ch06
