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
    // TODO(02.2): build a (batch, n_q, n_k) mask of 1 for valid keys (j < length) and 0 for padding,
    //            push the padded scores far down before chapter 00's softmax (ch00::softmax), and
    //            make padded weights exactly 0, also in rows with no valid key (2.3).
    //            Hint: ./course hint 02.2
    COURSE_TODO("02.2");
}

// ---- instantiations: do not edit ----
template Var<float> masked_softmax(const Var<float>&, const xt::xarray<std::int64_t>&);
template Var<double> masked_softmax(const Var<double>&, const xt::xarray<std::int64_t>&);

}  // namespace attn::ch02
