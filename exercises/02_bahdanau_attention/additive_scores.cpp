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
    // TODO(02.1): return the scores e of (2.2), (batch, n_q, n_k): every query of a sentence
    //             scored against every key of the same sentence. Build them from Var
    //             operations so that they have a gradient. Stuck? ./course hint 02.1
    COURSE_TODO("02.1");
}

// ---- instantiations: do not edit ----
template Var<float> additive_scores(const Var<float>&, const Var<float>&, const Var<float>&);
template Var<double> additive_scores(const Var<double>&, const Var<double>&, const Var<double>&);

}  // namespace attn::ch02
