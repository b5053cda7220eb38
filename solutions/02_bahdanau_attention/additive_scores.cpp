// Exercise 02.1: the additive attention score, equation (2.2).
#include "chapters/02_bahdanau_attention/additive_scores.hpp"

#include "chapters/02_bahdanau_attention/attention_layer.hpp"
#include "common/autodiff/ops.hpp"

namespace attn::ch02 {

// scores[b, i, j] = w_v . tanh(q_i + k_j)                                              (2.2)
// queries_proj (batch, n_q, h), keys_proj (batch, n_k, h), w_v (1, h) -> (batch, n_q, n_k)
template <class T>
Var<T> additive_scores(const Var<T>& queries_proj, const Var<T>& keys_proj, const Var<T>& w_v) {
    check_score_shapes(queries_proj, keys_proj, w_v);
    const std::size_t batch = queries_proj.shape(0), n_q = queries_proj.shape(1);
    const std::size_t n_k = keys_proj.shape(1), h = queries_proj.shape(2);
    // Broadcasting pairs every query with every key: (b, n_q, 1, h) + (b, 1, n_k, h).
    const Var<T> features = tanh(reshape(queries_proj, {batch, n_q, 1, h}) +
                                 reshape(keys_proj, {batch, 1, n_k, h}));     // (b, n_q, n_k, h)
    const Var<T> scores = matmul(features, w_v, false, true);                  // (b, n_q, n_k, 1): w_v . feature
    return reshape(scores, {batch, n_q, n_k});
    // The tanh is what makes this "additive" attention more than a dot product: without it
    // w_v . (q + k) = w_v . q + w_v . k, and the score could not depend on how q and k match.
}

// ---- instantiations: do not edit ----
template Var<float> additive_scores(const Var<float>&, const Var<float>&, const Var<float>&);
template Var<double> additive_scores(const Var<double>&, const Var<double>&, const Var<double>&);

}  // namespace attn::ch02
