// What the tiled attention of this chapter shares (exercises 08.2 and 08.3, the op that
// registers them, the figures): the mask described instead of stored, the block sizes, one tile
// of the score matrix and the scores inside it (8.5), and what the forward pass hands to the
// backward pass.
#pragma once
#include "common/tensor.hpp"

#include <cstddef>

namespace attn::ch08 {

// Which keys a query may see. An (n_q, n_k) boolean mask, chapter 03's Mask, is exactly the
// n x n matrix that tiling avoids, so the two masks of the course are described instead:
struct KeyMask {
    bool causal = false;     // query i sees keys j <= i only (chapter 03's (3.9)); needs n_q == n_k
    IndexVector valid_lens;  // (batch): keys j >= valid_lens[b] are padding (3.8); empty: all keys valid
};

// The block sizes: a tile is `queries` rows (queries) by `keys` columns (keys) of the score
// matrix. 256 x 256 was measured among the fastest (a float tile of 256 KiB stays in the L2
// cache between the two products that use it); any sizes >= 1 give the same numbers.
struct Blocks {
    std::size_t queries = 256;
    std::size_t keys = 256;
};

// One tile: queries q0..q1-1 against keys k0..k1-1 of batch entry b.
struct Tile {
    std::size_t b, q0, q1, k0, k1;
    std::size_t rows() const { return q1 - q0; }
    std::size_t cols() const { return k1 - k0; }
};

// The forward pass's result (exercise 08.2): the output, and the one number per query row
// that the backward pass needs to rebuild any tile of probabilities.
template <class T>
struct TiledAttention {
    Tensor3<T> output;        // O (batch, n_q, d_v)
    Matrix<T> log_sum_exp;    // L (batch, n_q): log of sum_j exp(s_ij) over the keys query i sees;
                              // -inf for a query that sees none (its output row is 0)
};

template <class T>
struct AttentionGradients {
    Tensor3<T> dQ;   // (batch, n_q, d)
    Tensor3<T> dK;   // (batch, n_k, d)
    Tensor3<T> dV;   // (batch, n_k, d_v)
};

// The keys that queries q0..q1-1 of batch entry b may see are 0..end-1: up to the valid
// length, and with a causal mask none after the block's last query q1 - 1. The key tiles
// from `end` on are skipped whole: that is where causal attention saves half the work.
std::size_t visible_keys(const KeyMask& mask, std::size_t b, std::size_t q1, std::size_t n_k);

// S = Q_i K_j^T / sqrt(d) for one tile (rows, cols), with -inf where a causal query may not
// see a key (j > i): exp(-inf) = 0 gives such a key exactly zero weight.              (8.5)
template <class T>
Matrix<T> score_block(const Tensor3<T>& Q, const Tensor3<T>& K, const Tile& tile, bool causal);

// O_i += P V_j: the tile's weights P (rows, cols) times the values of its keys, V's rows
// k0..k1-1 of batch entry b, added into O_i (rows, d_v). What O_i += xt::linalg::dot(P,
// rows_of(V, b, k0, k1)) computes, as one product into O_i's own memory: dot would return a new
// array to add from, a few percent of the forward pass's time.                         (8.4)
template <class T>
void add_weighted_values(Matrix<T>& O_i, const Matrix<T>& P, const Tensor3<T>& V, const Tile& tile);

// Rows r0..r1-1 of batch entry b of X (batch, n, d): a view, no copy (r1 - r0, d). Products
// read it in place; `+=` on the non-const one adds into X.
template <class T>
auto rows_of(const Tensor3<T>& X, std::size_t b, std::size_t r0, std::size_t r1) {
    return xt::view(X, b, xt::range(r0, r1), xt::all());
}
template <class T>
auto rows_of(Tensor3<T>& X, std::size_t b, std::size_t r0, std::size_t r1) {
    return xt::view(X, b, xt::range(r0, r1), xt::all());
}

// A vector (n) seen as a column (n, 1), which broadcasts against a matrix (n, m).
template <class T>
auto as_column(const Vector<T>& v) {
    return xt::view(v, xt::all(), xt::newaxis());
}

// X[r, :] *= factors[r] for each row r of X (rows, m), in place: X = diag(factors) X. The same
// as X *= as_column(factors), several times faster (one vectorized loop per row; xtensor's
// broadcasting assignment walks the matrix entry by entry), which counts in the hot loop of 08.2.
template <class T>
void scale_rows(Matrix<T>& X, const Vector<T>& factors);

// Throws std::invalid_argument, naming `who`, the lesson's symbols and the shapes, unless
// Q (batch, n_q, d), K (batch, n_k, d) and V (batch, n_k, d_v) fit with n_k, d >= 1, n_q ==
// n_k for a causal mask, valid_lens is empty or (batch) with each length in [0, n_k], and both
// block sizes are at least 1.
template <class T>
void check_tiled_inputs(const char* who, const Tensor3<T>& Q, const Tensor3<T>& K, const Tensor3<T>& V,
                        const KeyMask& mask, const Blocks& blocks);

// Throws std::invalid_argument, naming `who` and the shapes, unless `forward` holds an output
// (batch, n_q, d_v) and a log-sum-exp (batch, n_q) for these Q and V, and dO is shaped as the output.
template <class T>
void check_forward_and_gradient(const char* who, const Tensor3<T>& Q, const Tensor3<T>& V,
                                const TiledAttention<T>& forward, const Tensor3<T>& dO);

}  // namespace attn::ch08
