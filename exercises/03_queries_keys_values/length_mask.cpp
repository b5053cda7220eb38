// Exercise 03.3: the mask of valid lengths, equation (3.8).
#include "chapters/03_queries_keys_values/length_mask.hpp"

namespace attn::ch03 {

// blocked[b, i, j] = (j >= len), len = valid_lens[b] or valid_lens[b, i]               (3.8)
Mask length_mask(const xt::xarray<std::int64_t>& valid_lens, std::size_t n_q, std::size_t n_k) {
    check_lengths("length_mask", valid_lens, n_q, n_k);
    // TODO(03.3): a (batch, n_q, n_k) mask that blocks the keys at or past each valid
    //             length (3.8), with lengths of shape (batch) or (batch, n_q) and positions
    //             counted from 0. Hint: ./course hint 03.3
    COURSE_TODO("03.3");
}

}  // namespace attn::ch03
