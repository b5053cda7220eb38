// Exercise 04.2: the local-window mask, equation (4.4).
#include "chapters/04_self_attention/local_window_mask.hpp"

namespace attn::ch04 {

// blocked[b, i, j] = |i - j| > window: each position sees `window` neighbours on either
// side, and itself                                                                      (4.4)
ch03::Mask local_window_mask(std::size_t batch, std::size_t n, std::size_t window) {
    // TODO(04.2): a (batch, n, n) mask that blocks every key more than `window` positions
    //             away from its query, before or after it (4.4). Hint: ./course hint 04.2
    COURSE_TODO("04.2");
}

}  // namespace attn::ch04
