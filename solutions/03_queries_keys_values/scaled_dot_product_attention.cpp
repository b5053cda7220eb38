// Exercise 03.2: scaled dot-product attention with a mask, equations (3.5)-(3.7).
#include "chapters/03_queries_keys_values/scaled_dot_product_attention.hpp"

#include "chapters/00_foundations/softmax_op.hpp"
#include "common/autodiff/ops.hpp"

#include <cmath>

namespace attn::ch03 {

// weights = softmax(Q K^T / sqrt(d)) over the allowed keys, output = weights V          (3.5)-(3.7)
// queries (b, n_q, d), keys (b, n_k, d), values (b, n_k, d_v) -> output (b, n_q, d_v)
template <class T>
Attention<T> scaled_dot_product_attention(const Var<T>& queries, const Var<T>& keys, const Var<T>& values,
                                          const Mask& blocked) {
    check_attention_shapes("scaled_dot_product_attention", queries, keys, values, blocked);
    // Dividing by sqrt(d) keeps the scores' variance near 1 whatever d is, so the softmax
    // does not saturate on one key as d grows.
    // Scaling the queries (n_q d numbers) rather than the scores (n_q n_k) gives the same
    // scores for less work when there are more keys than dimensions.
    const T scale = T(1) / std::sqrt(static_cast<T>(queries.shape(2)));
    const Var<T> scores = bmm(queries * scale, keys, false, true);            // (b, n_q, n_k)  (3.5)
    Var<T> weights;
    if (is_empty(blocked)) {
        weights = ch00::softmax(scores);                                      // (3.6)
    } else {
        const Array<T> allowed = xt::cast<T>(!blocked);                       // 1 where i may look at j
        const Array<T> penalty = (T(1) - allowed) * T(blocked_score);         // 0 or -1e9
        // Blocked keys get exp(-1e9) = 0 inside the softmax; the product then turns the
        // uniform row of a query with no allowed key into zeros.
        weights = ch00::softmax(scores + constant<T>(penalty)) * constant<T>(allowed);   // (3.6)
    }
    return {bmm(weights, values), weights};                                   // (b, n_q, d_v)  (3.7)
}

// ---- instantiations: do not edit ----
template Attention<float> scaled_dot_product_attention(const Var<float>&, const Var<float>&, const Var<float>&,
                                                       const Mask&);
template Attention<double> scaled_dot_product_attention(const Var<double>&, const Var<double>&, const Var<double>&,
                                                        const Mask&);

}  // namespace attn::ch03
