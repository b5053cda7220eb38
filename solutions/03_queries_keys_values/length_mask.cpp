// Exercise 03.3: the mask of valid lengths, equation (3.8).
#include "chapters/03_queries_keys_values/length_mask.hpp"

namespace attn::ch03 {

// blocked[b, i, j] = (j >= len), len = valid_lens[b] or valid_lens[b, i]               (3.8)
Mask length_mask(const xt::xarray<std::int64_t>& valid_lens, std::size_t n_q, std::size_t n_k) {
    check_lengths("length_mask", valid_lens, n_q, n_k);
    const std::size_t batch = valid_lens.shape(0);
    Mask blocked = xt::zeros<bool>({batch, n_q, n_k});
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t i = 0; i < n_q; ++i) {
            const std::int64_t length = valid_lens.dimension() == 1 ? valid_lens(b) : valid_lens(b, i);
            for (std::size_t j = 0; j < n_k; ++j) blocked(b, i, j) = static_cast<std::int64_t>(j) >= length;
        }
    return blocked;
}

}  // namespace attn::ch03
