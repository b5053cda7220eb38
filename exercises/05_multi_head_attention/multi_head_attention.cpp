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
    // TODO(05.3): project query, key and value with the three (d, d) blocks of
    //             layer.in_proj_weight and in_proj_bias, split each into heads (5.3), combine
    //             and repeat the masks for every head (head_masks.hpp), attend with chapter
    //             03's scaled_dot_product_attention, merge the heads and apply layer.out_proj
    //             (5.4); return the per-head weights and their mean over the heads (5.5).
    //             Hint: ./course hint 05.3
    COURSE_TODO("05.3");
}

// ---- instantiations: do not edit ----
template MultiHeadOutput<float> multi_head_attention(const MultiHeadAttention<float>&, const Var<float>&,
                                                    const Var<float>&, const Var<float>&, const ch03::Mask&,
                                                    const ch03::Mask&);
template MultiHeadOutput<double> multi_head_attention(const MultiHeadAttention<double>&, const Var<double>&,
                                                     const Var<double>&, const Var<double>&, const ch03::Mask&,
                                                     const ch03::Mask&);

}  // namespace attn::ch05
