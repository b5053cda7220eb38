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
    const std::size_t batch = Q.shape(0), n_q = Q.shape(1), n_k = K.shape(1), d_v = V.shape(2);
    TiledAttention<T> result{Tensor3<T>::from_shape({batch, n_q, d_v}), Matrix<T>::from_shape({batch, n_q})};
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t q0 = 0; q0 < n_q; q0 += blocks.queries) {
            const std::size_t q1 = std::min(q0 + blocks.queries, n_q);
            // All that a query block keeps while it walks over the keys: m, l and O_i.
            RunningSoftmax<T> state = start_softmax<T>(q1 - q0);
            Matrix<T> O_i = xt::zeros<T>({q1 - q0, d_v});                                    // (rows, d_v)
            const std::size_t end = visible_keys(mask, b, q1, n_k);   // causal: no key after the last query
            for (std::size_t k0 = 0; k0 < end; k0 += blocks.keys) {
                const Tile tile{b, q0, q1, k0, std::min(k0 + blocks.keys, end)};
                SoftmaxBlock<T> step = online_softmax_step(state, score_block(Q, K, tile, mask.causal));   // (8.5), 08.1
                scale_rows(O_i, step.rescale);                                    // the earlier blocks' sum, now relative to m'
                add_weighted_values(O_i, step.weights, V, tile);                   // + exp(S - m') V_j   (8.4)
                state = std::move(step.state);
            }
            // A query that saw no key has l = 0: its row stays 0 instead of 0 / 0, and
            // m + log l = -inf + -inf = -inf.
            const Vector<T> inverse_sum = xt::where(state.sum > T(0), T(1) / state.sum, T(0));
            scale_rows(O_i, inverse_sum);                                                  // O_i / l   (8.6)
            rows_of(result.output, b, q0, q1) = O_i;
            xt::view(result.log_sum_exp, b, xt::range(q0, q1)) = state.max + xt::log(state.sum);   // L = m + log l   (8.6)
        }
    return result;
    // O_i += xt::linalg::dot(step.weights, rows_of(V, b, tile.k0, tile.k1)) adds the same
    // product; add_weighted_values writes it straight into O_i, which saves a copy per tile.
}

// ---- instantiations: do not edit ----
template TiledAttention<float> tiled_attention_forward(const Tensor3<float>&, const Tensor3<float>&,
                                                       const Tensor3<float>&, const KeyMask&, const Blocks&);
template TiledAttention<double> tiled_attention_forward(const Tensor3<double>&, const Tensor3<double>&,
                                                        const Tensor3<double>&, const KeyMask&, const Blocks&);

}  // namespace attn::ch08
