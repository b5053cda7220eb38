// Exercise 08.2: exact attention tile by tile (FlashAttention's forward pass), equations (8.4)-(8.6).
#include "chapters/08_attention_at_scale/tiled_attention_forward.hpp"

#include "chapters/08_attention_at_scale/online_softmax_step.hpp"

#include <xtensor-blas/xlinalg.hpp>

#include <algorithm>

namespace attn::ch08 {

// O_i = sum over key blocks j of exp(S - m) V_j, rescaled as m grows, then / l;  L_i = m + log l   (8.4)-(8.6)
// Q (b, n_q, d), K (b, n_k, d), V (b, n_k, d_v) -> O (b, n_q, d_v), L (b, n_q)
template <class T>
TiledAttention<T> tiled_attention_forward(const Tensor3<T>& Q, const Tensor3<T>& K, const Tensor3<T>& V,
                                          const KeyMask& mask, const Blocks& blocks) {
    check_tiled_inputs("tiled_attention_forward", Q, K, V, mask, blocks);
    // TODO(08.2): for each batch entry and each block of blocks.queries queries: start m, l
    //             (start_softmax) and O_i = 0; for each block of blocks.keys keys among the
    //             visible_keys, the tile's scores (score_block, (8.5)) through your
    //             online_softmax_step (08.1), then O_i rescaled and the weights times V_j
    //             added (8.4); at the end O_i / l and L = m + log l (8.6), with O = 0 (not
    //             NaN) for a query that saw no key. Return {O, L}. Stuck? ./course hint 08.2
    COURSE_TODO("08.2");
}

// ---- instantiations: do not edit ----
template TiledAttention<float> tiled_attention_forward(const Tensor3<float>&, const Tensor3<float>&,
                                                       const Tensor3<float>&, const KeyMask&, const Blocks&);
template TiledAttention<double> tiled_attention_forward(const Tensor3<double>&, const Tensor3<double>&,
                                                        const Tensor3<double>&, const KeyMask&, const Blocks&);

}  // namespace attn::ch08
