// Exercise 08.4: grouped-query attention, H query heads sharing G key/value heads, equations (8.11)-(8.13).
#include "chapters/08_attention_at_scale/grouped_query_attention.hpp"

#include "chapters/03_queries_keys_values/scaled_dot_product_attention.hpp"
#include "chapters/05_multi_head_attention/head_masks.hpp"
#include "chapters/05_multi_head_attention/merge_heads.hpp"
#include "chapters/05_multi_head_attention/split_heads.hpp"
#include "common/autodiff/ops.hpp"

#include <vector>

namespace attn::ch08 {

// Q_h from q_proj, K_g and V_g from k_proj and v_proj                                   (8.11)
// head_h = attention(Q_h, K_g, V_g), g = floor(h / (H / G))                              (8.12)
// output = concat_h head_h W_o^T + b_o                                                   (8.13)
template <class T>
GroupedQueryOutput<T> grouped_query_attention(const GroupedQueryAttention<T>& layer, const Var<T>& query,
                                              const Var<T>& key, const Var<T>& value, const ch03::Mask& key_padding,
                                              const ch03::Mask& attention_mask) {
    check_grouped_query_inputs("grouped_query_attention", layer, query, key, value);
    const std::size_t heads = layer.heads(), kv_heads = layer.kv_heads(), d_h = layer.head_size();
    const std::size_t batch = query.shape(0), n_q = query.shape(1), n_k = key.shape(1);
    const Var<T> Q = ch05::split_heads(layer.q_proj(query), heads);      // (b * H, n_q, d_h)           (8.11)
    const Var<T> K = ch05::split_heads(layer.k_proj(key), kv_heads);     // (b * G, n_k, d_h)
    const Var<T> V = ch05::split_heads(layer.v_proj(value), kv_heads);   // (b * G, n_k, d_h)

    // Query head h reads key/value head h / r: the list of which one each query head reads...  (8.12)
    std::vector<std::size_t> kv_head_of(heads);
    for (std::size_t h = 0; h < heads; ++h) kv_head_of[h] = h / layer.group_size();
    // ...picks each sequence's key/value heads into query-head order (repeats allowed, and
    // their gradients add up): then every query head has its own K_h, V_h, as in chapter 05.
    // The copies cost r times the memory of K and V; fast kernels avoid them by stacking the r
    // query heads of a group along the query axis, (b * G, r n_q, d_h), against the group's one
    // K and V, and unstacking the output: the same numbers, found with reshapes alone.
    const auto shared = [&](const Var<T>& x) {
        const Var<T> per_sequence = reshape(x, {batch, kv_heads, n_k, d_h});           // (b, G, n_k, d_h)
        return reshape(index_select(per_sequence, 1, kv_head_of), {batch * heads, n_k, d_h});   // (b * H, n_k, d_h)
    };
    // Both masks block keys of one sequence; every query head of that sequence obeys them.
    const ch03::Mask combined = ch05::combine_masks(key_padding, attention_mask, batch, n_q, n_k);   // (b, n_q, n_k)
    const ch03::Mask blocked = ch05::repeat_for_heads(combined, heads);                            // (b * H, n_q, n_k)
    // Chapter 03's attention divides the scores by sqrt of the size it is given, d_h.
    const ch03::Attention<T> per_head = ch03::scaled_dot_product_attention(Q, shared(K), shared(V), blocked);

    const Var<T> concatenated = ch05::merge_heads(per_head.output, heads);              // (b, n_q, d)
    return {layer.o_proj(concatenated),                                                 // (8.13)
            reshape(per_head.weights, {batch, heads, n_q, n_k})};
}

// ---- instantiations: do not edit ----
template GroupedQueryOutput<float> grouped_query_attention(const GroupedQueryAttention<float>&, const Var<float>&,
                                                           const Var<float>&, const Var<float>&, const ch03::Mask&,
                                                           const ch03::Mask&);
template GroupedQueryOutput<double> grouped_query_attention(const GroupedQueryAttention<double>&, const Var<double>&,
                                                            const Var<double>&, const Var<double>&, const ch03::Mask&,
                                                            const ch03::Mask&);

}  // namespace attn::ch08
