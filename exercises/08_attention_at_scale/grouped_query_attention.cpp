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
    // TODO(08.4): project query with layer.q_proj and split it into H heads, key and value
    //             with k_proj and v_proj into G heads each (8.11); give query head h the
    //             key/value head h / (H / G) of its sequence (index_select on a
    //             (batch, G, n_k, d_h) view), combine the masks and repeat them for the H
    //             heads (chapter 05's head_masks.hpp), attend with chapter 03's
    //             scaled_dot_product_attention (8.12), merge the heads and apply layer.o_proj
    //             (8.13); return the output and the weights as (batch, H, n_q, n_k).
    //             Hint: ./course hint 08.4
    COURSE_TODO("08.4");
}

// ---- instantiations: do not edit ----
template GroupedQueryOutput<float> grouped_query_attention(const GroupedQueryAttention<float>&, const Var<float>&,
                                                           const Var<float>&, const Var<float>&, const ch03::Mask&,
                                                           const ch03::Mask&);
template GroupedQueryOutput<double> grouped_query_attention(const GroupedQueryAttention<double>&, const Var<double>&,
                                                            const Var<double>&, const Var<double>&, const ch03::Mask&,
                                                            const ch03::Mask&);

}  // namespace attn::ch08
