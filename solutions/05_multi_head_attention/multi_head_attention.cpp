// Exercise 05.3: the multi-head attention forward, equations (5.3)-(5.5).
#include "chapters/05_multi_head_attention/multi_head_attention.hpp"

#include "chapters/03_queries_keys_values/scaled_dot_product_attention.hpp"
#include "chapters/05_multi_head_attention/head_masks.hpp"
#include "chapters/05_multi_head_attention/merge_heads.hpp"
#include "chapters/05_multi_head_attention/split_heads.hpp"
#include "common/autodiff/ops.hpp"

namespace attn::ch05 {

// Q_h, K_h, V_h = the heads of the projected inputs                                    (5.3)
// output = concat_h attention(Q_h, K_h, V_h) W_o^T + b_o                                (5.4)
// averaged weights = mean over the heads of A_h                                         (5.5)
template <class T>
MultiHeadOutput<T> multi_head_attention(const MultiHeadAttention<T>& layer, const Var<T>& query, const Var<T>& key,
                                        const Var<T>& value, const ch03::Mask& key_padding,
                                        const ch03::Mask& attention_mask) {
    const std::size_t d = layer.d_model(), heads = layer.heads();
    // Rows [0, d), [d, 2d), [2d, 3d) of the stacked projection are W_q, W_k, W_v.
    const auto project = [&](const Var<T>& x, std::size_t part) {
        const Var<T> W = slice(layer.in_proj_weight, 0, part * d, (part + 1) * d);   // (d, d)
        const Var<T> b = slice(layer.in_proj_bias, 0, part * d, (part + 1) * d);     // (d)
        return matmul(x, W, false, true) + b;                                        // x W^T + b
    };
    const Var<T> Q = split_heads(project(query, 0), heads);   // (b * heads, n_q, d_h)        (5.3)
    const Var<T> K = split_heads(project(key, 1), heads);     // (b * heads, n_k, d_h)
    const Var<T> V = split_heads(project(value, 2), heads);   // (b * heads, n_k, d_h)

    // Both masks block keys of one sequence; every head of that sequence obeys them.
    const std::size_t batch = query.shape(0), n_q = query.shape(1), n_k = key.shape(1);
    const ch03::Mask blocked = repeat_for_heads(combine_masks(key_padding, attention_mask, batch, n_q, n_k), heads);
    // Chapter 03's attention divides by sqrt of the size it is given: d_h, as it should.
    const ch03::Attention<T> per_head = ch03::scaled_dot_product_attention(Q, K, V, blocked);

    const Var<T> concatenated = merge_heads(per_head.output, heads);           // (b, n_q, d)
    const Var<T> head_weights = reshape(per_head.weights, {batch, heads, n_q, n_k});
    return {layer.out_proj(concatenated),                                       // (5.4)
            head_weights, mean(head_weights, 1)};                               // (5.5)
}

// ---- instantiations: do not edit ----
template MultiHeadOutput<float> multi_head_attention(const MultiHeadAttention<float>&, const Var<float>&,
                                                    const Var<float>&, const Var<float>&, const ch03::Mask&,
                                                    const ch03::Mask&);
template MultiHeadOutput<double> multi_head_attention(const MultiHeadAttention<double>&, const Var<double>&,
                                                     const Var<double>&, const Var<double>&, const ch03::Mask&,
                                                     const ch03::Mask&);

}  // namespace attn::ch05
