// Exercise 02.2: softmax over the valid positions only, equation (2.3).
#include "chapters/02_bahdanau_attention/masked_softmax.hpp"

#include "chapters/00_foundations/softmax_op.hpp"
#include "chapters/02_bahdanau_attention/attention_layer.hpp"
#include "common/autodiff/ops.hpp"

namespace attn::ch02 {

// weights = softmax over j < len of scores, and 0 for j >= len (all 0 when len = 0)     (2.3)
// scores (batch, n_q, n_k), valid_lens (batch) or (batch, n_q) -> (batch, n_q, n_k)
template <class T>
Var<T> masked_softmax(const Var<T>& scores, const xt::xarray<std::int64_t>& valid_lens) {
    check_mask_shapes(scores, valid_lens);
    const std::size_t batch = scores.shape(0), n_q = scores.shape(1), n_k = scores.shape(2);
    Array<T> keep = xt::zeros<T>({batch, n_q, n_k});   // 1 where key j is valid for query i
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t i = 0; i < n_q; ++i) {
            const std::int64_t length = valid_lens.dimension() == 1 ? valid_lens(b) : valid_lens(b, i);
            for (std::size_t j = 0; j < static_cast<std::size_t>(length); ++j) keep(b, i, j) = 1;
        }
    // A very negative score makes exp() exactly 0 in float and double. (Not -infinity: a row
    // with no valid key would then be -inf - (-inf) = NaN inside the softmax.)
    const Array<T> penalty = (keep - T(1)) * T(1e9);                      // 0 or -1e9
    const Var<T> weights = ch00::softmax(scores + constant<T>(penalty));   // chapter 00's softmax
    // The product zeroes the padding exactly, and turns the uniform row that a query with no
    // valid key would get into all zeros (docs/design.md, "Masks").
    return weights * constant<T>(keep);
}

// ---- instantiations: do not edit ----
template Var<float> masked_softmax(const Var<float>&, const xt::xarray<std::int64_t>&);
template Var<double> masked_softmax(const Var<double>&, const xt::xarray<std::int64_t>&);

}  // namespace attn::ch02
