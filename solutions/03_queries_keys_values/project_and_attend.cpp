// Exercise 03.5: the attention layer with learned projections, equation (3.10).
#include "chapters/03_queries_keys_values/project_and_attend.hpp"

#include "chapters/03_queries_keys_values/scaled_dot_product_attention.hpp"

namespace attn::ch03 {

// attention(Q W_q^T, K W_k^T, V W_v^T, blocked)                                        (3.10)
template <class T>
Attention<T> project_and_attend(const AttentionLayer<T>& layer, const Var<T>& queries, const Var<T>& keys,
                                const Var<T>& values, const Mask& blocked) {
    const Var<T> q = layer.W_q(queries);   // (b, n_q, d_k)
    const Var<T> k = layer.W_k(keys);      // (b, n_k, d_k): compared with the queries
    const Var<T> v = layer.W_v(values);    // (b, n_k, d_v): what the output is made of
    return scaled_dot_product_attention(q, k, v, blocked);
}

// ---- instantiations: do not edit ----
template Attention<float> project_and_attend(const AttentionLayer<float>&, const Var<float>&, const Var<float>&,
                                             const Var<float>&, const Mask&);
template Attention<double> project_and_attend(const AttentionLayer<double>&, const Var<double>&, const Var<double>&,
                                              const Var<double>&, const Mask&);

}  // namespace attn::ch03
