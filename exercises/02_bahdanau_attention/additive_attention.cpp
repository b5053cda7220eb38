// Exercise 02.3: additive attention, from queries to a context vector, (2.2)-(2.4).
#include "chapters/02_bahdanau_attention/additive_attention.hpp"

#include "chapters/02_bahdanau_attention/additive_scores.hpp"
#include "chapters/02_bahdanau_attention/masked_softmax.hpp"
#include "common/autodiff/ops.hpp"

namespace attn::ch02 {

// alpha = masked_softmax(additive_scores(W_q queries, keys_proj, w_v)), context = alpha V
// queries (b, n_q, q), keys_proj (b, n_k, h), values (b, n_k, v) -> context (b, n_q, v)
template <class T>
AttentionOutput<T> additive_attention(const Var<T>& queries, const Var<T>& keys_proj, const Var<T>& values,
                                      const xt::xarray<std::int64_t>& valid_lens, const AdditiveAttention<T>& layer) {
    // TODO(02.3): return the context (batch, n_q, v) and the weights (batch, n_q, n_k) of
    //             (2.2)-(2.4), with your additive_scores and masked_softmax; keys_proj is
    //             already projected, the queries are not. Stuck? ./course hint 02.3
    COURSE_TODO("02.3");
}

// ---- instantiations: do not edit ----
template AttentionOutput<float> additive_attention(const Var<float>&, const Var<float>&, const Var<float>&,
                                                   const xt::xarray<std::int64_t>&, const AdditiveAttention<float>&);
template AttentionOutput<double> additive_attention(const Var<double>&, const Var<double>&, const Var<double>&,
                                                    const xt::xarray<std::int64_t>&, const AdditiveAttention<double>&);

}  // namespace attn::ch02
