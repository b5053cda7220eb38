// Exercise 08.3: the gradients of tiled attention, each tile recomputed from the log-sum-exp,
// equations (8.7)-(8.10).
#include "chapters/08_attention_at_scale/tiled_attention_backward.hpp"

#include "common/row_math.hpp"

#include <xtensor-blas/xlinalg.hpp>

#include <algorithm>
#include <cmath>

namespace attn::ch08 {

// P = exp(S - L), dV += P^T dO, dS = P * (dO V^T - D), dQ += dS K / sqrt(d), dK += dS^T Q / sqrt(d)   (8.7)-(8.10)
// Q (b, n_q, d), K (b, n_k, d), V (b, n_k, d_v), dO (b, n_q, d_v) -> dQ, dK, dV shaped as Q, K, V
template <class T>
AttentionGradients<T> tiled_attention_backward(const Tensor3<T>& Q, const Tensor3<T>& K, const Tensor3<T>& V,
                                               const TiledAttention<T>& forward, const Tensor3<T>& dO,
                                               const KeyMask& mask, const Blocks& blocks) {
    check_tiled_inputs("tiled_attention_backward", Q, K, V, mask, blocks);
    check_forward_and_gradient("tiled_attention_backward", Q, V, forward, dO);
    // TODO(08.3): dQ, dK, dV start at zero. For each batch entry: D = the row-wise dot product
    //             of dO and O (8.9); then for each block of keys (up to visible_keys) and each
    //             block of queries that can see it (causal: from the block holding its first
    //             key): the tile's scores again (score_block), P = exp(S - L) with L from
    //             the forward pass (8.7), and the four products (8.8)-(8.10) added into the
    //             gradients' rows. Return {dQ, dK, dV}. Stuck? ./course hint 08.3
    COURSE_TODO("08.3");
}

// ---- instantiations: do not edit ----
template AttentionGradients<float> tiled_attention_backward(const Tensor3<float>&, const Tensor3<float>&,
                                                            const Tensor3<float>&, const TiledAttention<float>&,
                                                            const Tensor3<float>&, const KeyMask&, const Blocks&);
template AttentionGradients<double> tiled_attention_backward(const Tensor3<double>&, const Tensor3<double>&,
                                                             const Tensor3<double>&, const TiledAttention<double>&,
                                                             const Tensor3<double>&, const KeyMask&, const Blocks&);

}  // namespace attn::ch08
