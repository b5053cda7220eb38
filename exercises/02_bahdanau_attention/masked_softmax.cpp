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
    // TODO(02.2): return the weights alpha of (2.3), the shape of scores: a softmax over the
    //             valid keys j < length of each row (counted from 0), exactly 0 on padding,
    //             and all zeros (not NaN, not uniform) in a row whose length is 0.
    //             Stuck? ./course hint 02.2
    COURSE_TODO("02.2");
}

// ---- instantiations: do not edit ----
template Var<float> masked_softmax(const Var<float>&, const xt::xarray<std::int64_t>&);
template Var<double> masked_softmax(const Var<double>&, const xt::xarray<std::int64_t>&);

}  // namespace attn::ch02
