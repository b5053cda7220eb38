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
    const std::size_t batch = Q.shape(0), n_q = Q.shape(1), n_k = K.shape(1);
    const T scale = T(1) / std::sqrt(static_cast<T>(Q.shape(2)));
    AttentionGradients<T> g{xt::zeros<T>(Q.shape()), xt::zeros<T>(K.shape()), xt::zeros<T>(V.shape())};
    for (std::size_t b = 0; b < batch; ++b) {
        // D_i = dO_i . O_i: what the softmax's backward subtracts from each row of dP.      (8.9)
        const Vector<T> D = xt::sum(xt::view(dO, b) * xt::view(forward.output, b), {1});   // (n_q)
        // Key block by key block (FlashAttention-2's order): dK_j and dV_j are complete after
        // one sweep over the queries that see them.
        const std::size_t end = visible_keys(mask, b, n_q, n_k);   // the keys any query of b sees
        for (std::size_t k0 = 0; k0 < end; k0 += blocks.keys) {
            const std::size_t k1 = std::min(k0 + blocks.keys, end);
            // A causal key k0 is seen by queries i >= k0 only: start at the query block holding k0.
            for (std::size_t q0 = mask.causal ? k0 / blocks.queries * blocks.queries : 0; q0 < n_q; q0 += blocks.queries) {
                const Tile tile{b, q0, std::min(q0 + blocks.queries, n_q), k0, k1};
                Matrix<T> P = score_block(Q, K, tile, mask.causal);                         // S   (8.5)
                for (std::size_t r = 0; r < tile.rows(); ++r)                              // P = exp(S - L)   (8.7)
                    row_math::exp_minus(&P(r, 0), forward.log_sum_exp(b, q0 + r), &P(r, 0), tile.cols());
                const auto dO_i = rows_of(dO, b, tile.q0, tile.q1);                         // (rows, d_v)
                rows_of(g.dV, b, k0, k1) += xt::linalg::dot(xt::transpose(P), dO_i);        // (8.8)
                const Matrix<T> dP = xt::linalg::dot(dO_i, xt::transpose(rows_of(V, b, k0, k1)));   // (rows, cols)  (8.8)
                const Vector<T> D_i = xt::view(D, xt::range(tile.q0, tile.q1));
                // dS = P * (dP - D_i), each row less its own D_i (8.9), as a loop: written
                // P * (dP - as_column(D_i)), xtensor broadcasts entry by entry, and the whole
                // backward pass takes a third longer.
                Matrix<T> dS = xt::empty<T>(P.shape());
                for (std::size_t r = 0; r < tile.rows(); ++r)
                    for (std::size_t c = 0; c < tile.cols(); ++c) dS(r, c) = P(r, c) * (dP(r, c) - D_i(r));
                rows_of(g.dQ, b, tile.q0, tile.q1) += scale * xt::linalg::dot(dS, rows_of(K, b, k0, k1));             // (8.10)
                rows_of(g.dK, b, k0, k1) += scale * xt::linalg::dot(xt::transpose(dS), rows_of(Q, b, tile.q0, tile.q1));   // (8.10)
            }
        }
    }
    return g;
}

// ---- instantiations: do not edit ----
template AttentionGradients<float> tiled_attention_backward(const Tensor3<float>&, const Tensor3<float>&,
                                                            const Tensor3<float>&, const TiledAttention<float>&,
                                                            const Tensor3<float>&, const KeyMask&, const Blocks&);
template AttentionGradients<double> tiled_attention_backward(const Tensor3<double>&, const Tensor3<double>&,
                                                             const Tensor3<double>&, const TiledAttention<double>&,
                                                             const Tensor3<double>&, const KeyMask&, const Blocks&);

}  // namespace attn::ch08
