// Exercise 03.4: the causal mask, equation (3.9).
#include "chapters/03_queries_keys_values/causal_mask.hpp"

namespace attn::ch03 {

// blocked[b, i, j] = (j > i): the future is hidden, the present and the past are not   (3.9)
Mask causal_mask(std::size_t batch, std::size_t n) {
    // TODO(03.4): a (batch, n, n) mask that blocks, for each position i, every later
    //             position (3.9). Hint: ./course hint 03.4
    COURSE_TODO("03.4");
}

}  // namespace attn::ch03
