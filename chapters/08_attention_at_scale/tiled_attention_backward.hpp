// Exercise 08.3: the gradients of tiled attention, each tile recomputed from the log-sum-exp,
// equations (8.7)-(8.10).
#pragma once
#include "chapters/08_attention_at_scale/tiles.hpp"

namespace attn::ch08 {

// dQ, dK, dV of O = softmax(Q K^T / sqrt(d) + mask) V given dO = dLoss/dO, without the n_q x n_k
// probabilities, which the forward pass did not keep: each tile of them is recomputed from its
// scores and the rows' log-sum-exp L, exactly (no online rescaling is needed the second time).
// Once for all queries:
//   D_i = sum_c dO_ic O_ic                                                               (8.9)
// then for each tile of key block j and query block i:
//   P = exp(S - L_i)               S = Q_i K_j^T / sqrt(d) (score_block), recomputed      (8.7)
//   dV_j += P^T dO_i               dP = dO_i V_j^T                                        (8.8)
//   dS = P * (dP - D_i)            the softmax's backward, row by row                     (8.9)
//   dQ_i += dS K_j / sqrt(d)       dK_j += dS^T Q_i / sqrt(d)                             (8.10)
// Q (batch, n_q, d), K (batch, n_k, d), V (batch, n_k, d_v), `forward` what
// tiled_attention_forward returned for them, dO (batch, n_q, d_v) -> {dQ, dK, dV}, each shaped
// as its input. Blocked keys and padding get exactly zero gradient. Throws
// std::invalid_argument if the shapes, the mask or the block sizes do not fit.
template <class T>
AttentionGradients<T> tiled_attention_backward(const Tensor3<T>& Q, const Tensor3<T>& K, const Tensor3<T>& V,
                                               const TiledAttention<T>& forward, const Tensor3<T>& dO,
                                               const KeyMask& mask = {}, const Blocks& blocks = {});

}  // namespace attn::ch08
