// Exercise 05.2: merge the heads back, the inverse of the split, equation (5.2).
#include "chapters/05_multi_head_attention/merge_heads.hpp"

#include "common/autodiff/ops.hpp"

#include <stdexcept>
#include <string>

namespace attn::ch05 {

// merge(x)[b, i, h d_h + k] = x[b * heads + h, i, k]                                    (5.2)
// x (b * heads, n, d_h) -> (b, n, heads d_h)
template <class T>
Var<T> merge_heads(const Var<T>& x, std::size_t heads) {
    // TODO(05.2): undo split_heads exactly (5.2): x (b * heads, n, d_h) -> (b, n, d), each
    //             position's heads side by side in order; refuse (std::invalid_argument) a
    //             first axis that is not a multiple of heads. Use the autodiff shape ops.
    //             Hint: ./course hint 05.2
    COURSE_TODO("05.2");
}

// ---- instantiations: do not edit ----
template Var<float> merge_heads(const Var<float>&, std::size_t);
template Var<double> merge_heads(const Var<double>&, std::size_t);

}  // namespace attn::ch05
