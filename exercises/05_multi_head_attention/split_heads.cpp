// Exercise 05.1: split the features into heads, equation (5.1).
#include "chapters/05_multi_head_attention/split_heads.hpp"

#include "common/autodiff/ops.hpp"

#include <stdexcept>
#include <string>

namespace attn::ch05 {

// split(x)[b * heads + h, i, k] = x[b, i, h d_h + k]                                    (5.1)
// x (b, n, d) -> (b * heads, n, d_h)
template <class T>
Var<T> split_heads(const Var<T>& x, std::size_t heads) {
    // TODO(05.1): cut the last axis of x (b, n, d) into `heads` blocks of d_h = d / heads
    //             consecutive features and make each head its own (n, d_h) matrix, entry
    //             b * heads + h of the result (5.1); refuse (std::invalid_argument) a d that
    //             is not a multiple of heads. Use the autodiff shape ops so gradients flow.
    //             Hint: ./course hint 05.1
    COURSE_TODO("05.1");
}

// ---- instantiations: do not edit ----
template Var<float> split_heads(const Var<float>&, std::size_t);
template Var<double> split_heads(const Var<double>&, std::size_t);

}  // namespace attn::ch05
