// Exercise 08.2: exact attention tile by tile (FlashAttention's forward pass), equations (8.4)-(8.6).
#pragma once
#include "chapters/08_attention_at_scale/tiles.hpp"

namespace attn::ch08 {

// O = softmax(Q K^T / sqrt(d) + mask) V, the very numbers of chapter 03's
// scaled_dot_product_attention, computed one block of `blocks.queries` queries at a time
// against one block of `blocks.keys` keys at a time, never holding more than one tile of the
// n_q x n_k scores. For each query block i, over its visible key blocks j:
//   S = Q_i K_j^T / sqrt(d)                   the tile's scores (score_block)             (8.5)
//   online_softmax_step(state {m, l}, S)      exercise 08.1: the new {m, l}, the tile's
//                                             weights P and the rescale exp(m_old - m)    (8.2)-(8.3)
//   O_i = O_i exp(m_old - m) + P V_j          the output so far, rescaled like l          (8.4)
// then O_i = O_i / l and L_i = m + log l                                                  (8.6)
// Q (batch, n_q, d), K (batch, n_k, d), V (batch, n_k, d_v) -> {output O (batch, n_q, d_v),
// log_sum_exp L (batch, n_q)}. A query that sees no key (valid length 0) gets O = 0 and
// L = -inf, never NaN. Throws std::invalid_argument if the shapes, the mask or the block sizes
// do not fit (check_tiled_inputs).
template <class T>
TiledAttention<T> tiled_attention_forward(const Tensor3<T>& Q, const Tensor3<T>& K, const Tensor3<T>& V,
                                          const KeyMask& mask = {}, const Blocks& blocks = {});

}  // namespace attn::ch08
