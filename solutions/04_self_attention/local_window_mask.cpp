// Exercise 04.2: the local-window mask, equation (4.4).
#include "chapters/04_self_attention/local_window_mask.hpp"

namespace attn::ch04 {

// blocked[b, i, j] = |i - j| > window: each position sees `window` neighbours on either
// side, and itself                                                                      (4.4)
ch03::Mask local_window_mask(std::size_t batch, std::size_t n, std::size_t window) {
    ch03::Mask blocked = xt::zeros<bool>({batch, n, n});
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                const std::size_t distance = i > j ? i - j : j - i;   // |i - j| without unsigned wrap-around
                blocked(b, i, j) = distance > window;
            }
    return blocked;
}

}  // namespace attn::ch04
