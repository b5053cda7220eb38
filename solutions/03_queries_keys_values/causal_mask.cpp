// Exercise 03.4: the causal mask, equation (3.9).
#include "chapters/03_queries_keys_values/causal_mask.hpp"

namespace attn::ch03 {

// blocked[b, i, j] = (j > i): the future is hidden, the present and the past are not   (3.9)
Mask causal_mask(std::size_t batch, std::size_t n) {
    Mask blocked = xt::zeros<bool>({batch, n, n});
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) blocked(b, i, j) = j > i;
    return blocked;
}

}  // namespace attn::ch03
