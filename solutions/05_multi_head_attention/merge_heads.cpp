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
    if (x.dim() != 3 || heads == 0 || x.shape(0) % heads != 0)
        throw std::invalid_argument("merge_heads: x " + shape_string(x.shape()) +
                                    " must be (batch * heads, n, d_h), its first axis a multiple of heads = " +
                                    std::to_string(heads));
    const std::size_t b = x.shape(0) / heads, n = x.shape(1), d_h = x.shape(2);
    // The split's steps backwards: undo the reshape, move the head axis back after the
    // positions, and lay each position's heads side by side.
    const Var<T> per_head = reshape(x, {b, heads, n, d_h});   // (b, heads, n, d_h)
    const Var<T> blocks = transpose(per_head, 1, 2);          // (b, n, heads, d_h)
    return reshape(blocks, {b, n, heads * d_h});              // (b, n, d)
}

// ---- instantiations: do not edit ----
template Var<float> merge_heads(const Var<float>&, std::size_t);
template Var<double> merge_heads(const Var<double>&, std::size_t);

}  // namespace attn::ch05
