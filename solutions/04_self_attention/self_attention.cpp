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
    // The same X three times: each position asks (query), offers (key) and carries (value).
    const Var<T> Q = layer.W_q(X);   // (b, n, d_k)                                          (4.1)
    const Var<T> K = layer.W_k(X);   // (b, n, d_k)
    const Var<T> V = layer.W_v(X);   // (b, n, d_v)
    // Padding is a property of the keys: key j >= valid_lens[b] is blocked for every query.
    const std::size_t n = X.shape(1);
    const ch03::Mask padding = ch03::length_mask(valid_lens, n, n);   // (b, n, n)
    return ch03::scaled_dot_product_attention(Q, K, V, padding);      // (4.2)-(4.3)
}

// ---- instantiations: do not edit ----
template ch03::Attention<float> self_attention(const ch03::AttentionLayer<float>&, const Var<float>&,
                                               const xt::xarray<std::int64_t>&);
template ch03::Attention<double> self_attention(const ch03::AttentionLayer<double>&, const Var<double>&,
                                                const xt::xarray<std::int64_t>&);

}  // namespace attn::ch04
