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
    // TODO(03.2): the scores of every query against every key, scaled by 1/sqrt(d) (3.5);
    //             weights normalised over the keys (ch00::softmax, your chapter 00 softmax
    //             as an autodiff op), with blocked keys at exactly zero and a
    //             query with no allowed key at all zeros (3.6); the output as the weighted
    //             sum of the values (3.7). Return {output, weights}. Hint: ./course hint 03.2
    COURSE_TODO("03.2");
}

// ---- instantiations: do not edit ----
template Attention<float> scaled_dot_product_attention(const Var<float>&, const Var<float>&, const Var<float>&,
                                                       const Mask&);
template Attention<double> scaled_dot_product_attention(const Var<double>&, const Var<double>&, const Var<double>&,
                                                        const Mask&);

}  // namespace attn::ch03
