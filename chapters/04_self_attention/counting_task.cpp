// The counting task's data (see counting_task.hpp).
#include "chapters/04_self_attention/counting_task.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace attn::ch04 {

CountingBatch make_counting_batch(const CountingTask& task, std::size_t batch, Rng& rng) {
    xt::xarray<std::int64_t> tokens = xt::zeros<std::int64_t>({batch, task.length});
    for (auto& token : tokens) token = static_cast<std::int64_t>(rng.below(task.vocab));
    return label_counting_batch(task, std::move(tokens));
}

CountingBatch label_counting_batch(const CountingTask& task, xt::xarray<std::int64_t> tokens) {
    if (tokens.dimension() != 2 || tokens.shape(1) != task.length || task.classes < 1)
        throw std::invalid_argument("label_counting_batch: expected tokens of shape (batch, " +
                                    std::to_string(task.length) + ") and at least one class");
    const std::size_t batch = tokens.shape(0), n = task.length;
    CountingBatch result{std::move(tokens), xt::zeros<std::int64_t>({batch, n}), xt::zeros<std::int64_t>({batch, n})};
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t i = 0; i < n; ++i) {
            std::int64_t count = 0, farthest = 0;
            for (std::size_t j = 0; j < n; ++j)   // n^2 per sequence: the labels, not the model
                if (result.tokens(b, j) == result.tokens(b, i)) {
                    ++count;
                    farthest = std::max(farthest, static_cast<std::int64_t>(j > i ? j - i : i - j));
                }
            result.classes(b, i) = std::min<std::int64_t>(count, static_cast<std::int64_t>(task.classes)) - 1;
            result.farthest(b, i) = farthest;
        }
    return result;
}

std::size_t bucket_of(std::size_t distance) {
    std::size_t bucket = 0;   // 0 -> 0, 1-3 -> 1, 4-7 -> 2, 8-15 -> 3, ...
    for (std::size_t edge = 1; distance >= edge; edge = edge == 1 ? 4 : 2 * edge) ++bucket;
    return bucket;
}

std::vector<std::string> bucket_names(std::size_t length) {
    std::vector<std::string> names{"0 (unique)"};
    for (std::size_t lo = 1; lo < length; lo = lo == 1 ? 4 : 2 * lo) {
        const std::size_t hi = std::min(lo == 1 ? std::size_t{3} : 2 * lo - 1, length - 1);
        names.push_back(std::to_string(lo) + "-" + std::to_string(hi));
    }
    return names;
}

}  // namespace attn::ch04
