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
    if (x.dim() != 3 || heads == 0 || x.shape(2) % heads != 0)
        throw std::invalid_argument("split_heads: x " + shape_string(x.shape()) +
                                    " must be (batch, n, d) with d a multiple of heads = " +
                                    std::to_string(heads));
    const std::size_t b = x.shape(0), n = x.shape(1), d_h = x.shape(2) / heads;
    // The last axis is cut into heads blocks of d_h consecutive features...
    const Var<T> blocks = reshape(x, {b, n, heads, d_h});     // (b, n, heads, d_h)
    // ...and the head axis moves before the positions, so each head is one (n, d_h) matrix.
    const Var<T> per_head = transpose(blocks, 1, 2);          // (b, heads, n, d_h)
    return reshape(per_head, {b * heads, n, d_h});            // (b * heads, n, d_h)
}

// ---- instantiations: do not edit ----
template Var<float> split_heads(const Var<float>&, std::size_t);
template Var<double> split_heads(const Var<double>&, std::size_t);

}  // namespace attn::ch05
