// Exercise 04.1: self-attention in matrix form, equations (4.1)-(4.3).
#include "chapters/04_self_attention/self_attention.hpp"

#include "chapters/03_queries_keys_values/length_mask.hpp"
#include "chapters/03_queries_keys_values/scaled_dot_product_attention.hpp"
#include "common/autodiff/ops.hpp"

namespace attn::ch04 {

// Q = X W_q^T, K = X W_k^T, V = X W_v^T; A = softmax(Q K^T / sqrt(d_k)) over the valid
// keys; O = A V                                                                         (4.1)-(4.3)
// X (b, n, d_model) -> output (b, n, d_v), weights (b, n, n)
template <class T>
ch03::Attention<T> self_attention(const ch03::AttentionLayer<T>& layer, const Var<T>& X,
                                  const xt::xarray<std::int64_t>& valid_lens) {
    // TODO(04.1): project X into queries, keys and values with the layer's W_q, W_k, W_v (4.1;
    //             a Linear applies to a batched tensor by a call: layer.W_q(X), common/nn/layers.hpp),
    //             block the padded keys with chapter 03's length_mask, and attend with
    //             chapter 03's scaled_dot_product_attention (4.2)-(4.3).
    //             Hint: ./course hint 04.1
    COURSE_TODO("04.1");
}

// ---- instantiations: do not edit ----
template ch03::Attention<float> self_attention(const ch03::AttentionLayer<float>&, const Var<float>&,
                                               const xt::xarray<std::int64_t>&);
template ch03::Attention<double> self_attention(const ch03::AttentionLayer<double>&, const Var<double>&,
                                                const xt::xarray<std::int64_t>&);

}  // namespace attn::ch04
