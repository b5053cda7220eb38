// Attention as one op that streams over the keys (see ops.hpp): FlashAttention's algorithm,
// written to be read beside its formulas. It computes what chapter 03 composes from four ops,
//
//     O = softmax(scale Q K^T + mask) V          = bmm(exp(log_softmax(scale * bmm(Q, K^T) + mask)), V)
//
// but never holds the n_q x n_k matrix of scores: it walks it tile by tile (a block of queries
// against a block of keys) and keeps, for each query row, only
//
//     running_max  m = the largest score seen so far,
//     running_sum  l = sum over the keys seen so far of exp(s_j - m),
//     O (the row of the output, unnormalised) = sum over the keys seen so far of exp(s_j - m) v_j.
//
// When a new tile raises the maximum from m to m', everything summed so far was weighted by
// exp(s - m) and must now be weighted by exp(s - m'): l and O are multiplied by exp(m - m')
// (the "online softmax"). After the last tile, O / l is the softmax-weighted average.
//
// The backward pass recomputes each probability tile from the scores and the row's log-sum-exp
// (lse = m + log l, the only thing saved besides the output), as FlashAttention-2 does:
//
//     P  = exp(S - lse)            dV += P^T dO          dP = dO V^T
//     D  = rowsum(dO * O)          dS  = P * (dP - D)    dQ += scale dS K     dK += scale dS^T Q
//
// Memory: two tiles of scores and the (n, d) inputs, outputs and gradients; never n_q x n_k.
#include "common/autodiff/blas.hpp"
#include "common/autodiff/kernels.hpp"
#include "common/autodiff/ops.hpp"
#include "common/row_math.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace attn {

namespace {

// Tile sizes, chosen by measurement (float32, d = 64, one thread, n = 1024 and 8192): every
// size from 64 to 512 queries x 128 to 1024 keys ran within about 5 % of the others, because
// the two products take about 80 % of the time whatever the tiles (a tiled product costs what
// one whole gemm costs). 256 x 256 was among the fastest, forward and backward: a score tile
// of 256 KiB of floats stays in the core's L2 cache between the two products that read it.
constexpr std::size_t query_tile = 256;
constexpr std::size_t key_tile = 256;

struct AttentionShape {
    std::size_t batch, n_q, n_k, d, d_v;
};

AttentionShape attention_shape(const Shape& q, const Shape& k, const Shape& v, bool causal) {
    const bool ok = q.size() == 3 && k.size() == 3 && v.size() == 3 && k[0] == q[0] && v[0] == q[0] &&
                    k[2] == q[2] && v[1] == k[1] && k[1] > 0 && q[2] > 0 && (!causal || q[1] == k[1]);
    if (!ok)
        throw std::invalid_argument("streaming_attention: expected Q (batch, n_q, d), K (batch, n_k, d) and V (batch, "
                                    "n_k, d_v) with n_k, d > 0" + std::string(causal ? " and n_q == n_k (causal)" : "") +
                                    ", got Q " + shape_string(q) + ", K " + shape_string(k) + ", V " + shape_string(v));
    return {q[0], q[1], k[1], q[2], v[2]};
}

// A block of the score matrix: queries q0..q1-1 against keys k0..k1-1.
struct Tile {
    std::size_t q0, q1, k0, k1;
    std::size_t rows() const { return q1 - q0; }
    std::size_t cols() const { return k1 - k0; }
};

// The keys a causal query tile can see end at its last query; all keys otherwise.
std::size_t keys_visible(std::size_t q1, std::size_t n_k, bool causal) { return causal ? std::min(q1, n_k) : n_k; }

// row[j] = exp(row[j] - shift) for every entry (shift >= every entry): the op's only exp over
// a tile, through the toolkit's vectorised row loop (a polynomial for float, std::exp for double).
template <class T>
void exp_shifted(T* row, std::size_t length, T shift) {
    row_math::exp_minus(row, shift, row, length);
}

// S = scale Q_tile K_tile^T (rows x cols), with -inf where a causal query i may not see key j > i.
template <class T>
void score_tile(const T* Q, const T* K, std::size_t d, const Tile& t, T scale, bool causal, T* S) {
    blas::gemm<T>(false, true, t.rows(), t.cols(), d, scale, Q + t.q0 * d, K + t.k0 * d, T(0), S);
    if (!causal || t.k1 <= t.q0 + 1) return;   // the whole tile lies on or below the diagonal
    for (std::size_t r = 0; r < t.rows(); ++r)
        for (std::size_t c = 0; c < t.cols(); ++c)
            if (t.k0 + c > t.q0 + r) S[r * t.cols() + c] = -std::numeric_limits<T>::infinity();
}

// One step of the online softmax for the tile's rows: turns the scores S into exp(S - m') in
// place, where m' is the row's new running maximum, and rescales what was summed so far.
template <class T>
void online_softmax_step(T* S, const Tile& t, T* running_max, T* running_sum, T* O, std::size_t d_v) {
    for (std::size_t r = 0; r < t.rows(); ++r) {
        T* s = S + r * t.cols();
        const T new_max = std::max(running_max[r], row_math::max(s, t.cols()));
        const T correction = std::exp(running_max[r] - new_max);   // 0 on the first tile (m = -inf)
        exp_shifted(s, t.cols(), new_max);
        running_sum[r] = running_sum[r] * correction + row_math::sum(s, t.cols());
        row_math::scale(O + r * d_v, correction, d_v);
        running_max[r] = new_max;
    }
}

// The forward pass for queries q0..q1-1 of one batch entry: writes their rows of O and their
// log-sum-exp. `scores` holds one tile.
template <class T>
void forward_query_tile(const T* Q, const T* K, const T* V, const AttentionShape& s, std::size_t q0, std::size_t q1,
                        T scale, bool causal, T* O, T* row_lse, std::vector<T>& scores) {
    const std::size_t rows = q1 - q0;
    std::vector<T> running_max(rows, -std::numeric_limits<T>::infinity()), running_sum(rows, T(0));
    T* O_rows = O + q0 * s.d_v;
    std::fill(O_rows, O_rows + rows * s.d_v, T(0));
    const std::size_t n_keys = keys_visible(q1, s.n_k, causal);
    for (std::size_t k0 = 0; k0 < n_keys; k0 += key_tile) {
        const Tile t{q0, q1, k0, std::min(k0 + key_tile, n_keys)};
        score_tile(Q, K, s.d, t, scale, causal, scores.data());
        online_softmax_step(scores.data(), t, running_max.data(), running_sum.data(), O_rows, s.d_v);
        // O += P V_tile
        blas::gemm<T>(false, false, rows, s.d_v, t.cols(), T(1), scores.data(), V + k0 * s.d_v, T(1), O_rows);
    }
    for (std::size_t r = 0; r < rows; ++r) {   // O = O / l,   lse = m + log l
        row_math::scale(O_rows + r * s.d_v, T(1) / running_sum[r], s.d_v);
        row_lse[q0 + r] = running_max[r] + std::log(running_sum[r]);
    }
}

// Where an input's gradient goes: its gradient buffer (zeros on first use, since every tile adds
// into it), or nullptr if it wants none.
template <class T>
T* gradient_or_null(Node<T>& node) {
    return node.requires_grad ? kernels::grad_buffer(node).data() : nullptr;
}

// D = rowsum(dO * O), one value per query.
template <class T>
std::vector<T> rowsum_dO_times_O(const T* dO, const T* O, std::size_t n_q, std::size_t d_v) {
    std::vector<T> D(n_q);
    for (std::size_t i = 0; i < n_q; ++i) D[i] = row_math::dot(dO + i * d_v, O + i * d_v, d_v);
    return D;
}

// The backward pass of one batch entry, key tile by key tile (FlashAttention-2's order: a
// tile's dK and dV are complete after one sweep over the queries).
template <class T>
void backward_one_entry(const T* Q, const T* K, const T* V, const T* O, const T* dO, const T* row_lse,
                        const AttentionShape& s, T scale, bool causal, T* dQ, T* dK, T* dV) {
    const std::vector<T> D = rowsum_dO_times_O(dO, O, s.n_q, s.d_v);
    std::vector<T> P(query_tile * key_tile), dS(query_tile * key_tile);
    for (std::size_t k0 = 0; k0 < s.n_k; k0 += key_tile) {
        const std::size_t k1 = std::min(k0 + key_tile, s.n_k);
        // A causal key k is seen by the queries i >= k only: start at the query tile holding k0.
        const std::size_t first_query = causal ? k0 / query_tile * query_tile : 0;
        for (std::size_t q0 = first_query; q0 < s.n_q; q0 += query_tile) {
            const Tile t{q0, std::min(q0 + query_tile, s.n_q), k0, k1};
            score_tile(Q, K, s.d, t, scale, causal, P.data());
            for (std::size_t r = 0; r < t.rows(); ++r) exp_shifted(P.data() + r * t.cols(), t.cols(), row_lse[q0 + r]);
            const T* dO_rows = dO + q0 * s.d_v;
            // dV += P^T dO
            if (dV) blas::gemm<T>(true, false, t.cols(), s.d_v, t.rows(), T(1), P.data(), dO_rows, T(1), dV + k0 * s.d_v);
            if (!dQ && !dK) continue;
            // dP = dO V^T, then dS = P * (dP - D) in the same buffer
            blas::gemm<T>(false, true, t.rows(), t.cols(), s.d_v, T(1), dO_rows, V + k0 * s.d_v, T(0), dS.data());
            for (std::size_t r = 0; r < t.rows(); ++r)
                for (std::size_t c = 0; c < t.cols(); ++c) {
                    T& ds = dS[r * t.cols() + c];
                    ds = P[r * t.cols() + c] * (ds - D[q0 + r]);
                }
            // dQ += scale dS K,   dK += scale dS^T Q
            if (dQ) blas::gemm<T>(false, false, t.rows(), s.d, t.cols(), scale, dS.data(), K + k0 * s.d, T(1), dQ + q0 * s.d);
            if (dK) blas::gemm<T>(true, false, t.cols(), s.d, t.rows(), scale, dS.data(), Q + q0 * s.d, T(1), dK + k0 * s.d);
        }
    }
}

}  // namespace

template <class T>
Var<T> streaming_attention(const Var<T>& Q, const Var<T>& K, const Var<T>& V, Scalar<T> scale, bool causal) {
    const AttentionShape s = attention_shape(Q.shape(), K.shape(), V.shape(), causal);
    Array<T> O = kernels::empty_array<T>({s.batch, s.n_q, s.d_v});
    std::vector<T> row_lse(s.batch * s.n_q);   // log sum_j exp(s_ij), all the backward needs besides O
    std::vector<T> scores(query_tile * key_tile);
    const std::size_t q_step = s.n_q * s.d, k_step = s.n_k * s.d, v_step = s.n_k * s.d_v, o_step = s.n_q * s.d_v;
    for (std::size_t b = 0; b < s.batch; ++b)
        for (std::size_t q0 = 0; q0 < s.n_q; q0 += query_tile)
            forward_query_tile(Q.value().data() + b * q_step, K.value().data() + b * k_step,
                               V.value().data() + b * v_step, s, q0, std::min(q0 + query_tile, s.n_q), scale, causal,
                               O.data() + b * o_step, row_lse.data() + b * s.n_q, scores);
    return record_op<T>("streaming_attention", std::move(O), {Q, K, V}, Reads::inputs_and_output,
                        [=, row_lse = std::move(row_lse)](Node<T>& self) {
        const Node<T>& q = *self.inputs[0];
        const Node<T>& k = *self.inputs[1];
        const Node<T>& v = *self.inputs[2];
        // Q, K and V may be one Var (self-attention): every gradient below is added, so they
        // may share a buffer. Each is looked up after the previous one was allocated.
        T* dQ = gradient_or_null(*self.inputs[0]);
        T* dK = gradient_or_null(*self.inputs[1]);
        T* dV = gradient_or_null(*self.inputs[2]);
        for (std::size_t b = 0; b < s.batch; ++b)   // O = softmax(scale Q K^T + mask) V
            backward_one_entry(q.value.data() + b * q_step, k.value.data() + b * k_step, v.value.data() + b * v_step,
                               self.value.data() + b * o_step, self.grad.data() + b * o_step,
                               row_lse.data() + b * s.n_q, s, scale, causal, dQ ? dQ + b * q_step : nullptr,
                               dK ? dK + b * k_step : nullptr, dV ? dV + b * v_step : nullptr);
    });
}

// ---- instantiations: do not edit ----
template Var<float> streaming_attention(const Var<float>&, const Var<float>&, const Var<float>&, float, bool);
template Var<double> streaming_attention(const Var<double>&, const Var<double>&, const Var<double>&, double, bool);

}  // namespace attn
