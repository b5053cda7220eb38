// The tiles of the score matrix (tiles.hpp): which keys a query block sees, the scores of one
// tile (8.5), and the checks every tiled function makes first.
#include "chapters/08_attention_at_scale/tiles.hpp"

#include "common/autodiff/blas.hpp"
#include "common/row_math.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace attn::ch08 {

std::size_t visible_keys(const KeyMask& mask, std::size_t b, std::size_t q1, std::size_t n_k) {
    const std::size_t length = mask.valid_lens.size() == 0 ? n_k : static_cast<std::size_t>(mask.valid_lens(b));
    return mask.causal ? std::min(q1, length) : length;
}

template <class T>
Matrix<T> score_block(const Tensor3<T>& Q, const Tensor3<T>& K, const Tile& tile, bool causal) {
    const std::size_t d = Q.shape(2);
    Matrix<T> S = Matrix<T>::from_shape({tile.rows(), tile.cols()});   // (rows, cols)
    // One product on the rows' own memory, the 1/sqrt(d) folded into it: this is the hot loop of
    // the chapter, and xt::linalg::dot would return a new array to copy from.
    blas::gemm<T>(false, true, tile.rows(), tile.cols(), d, T(1) / std::sqrt(static_cast<T>(d)), &Q(tile.b, tile.q0, 0),
                  &K(tile.b, tile.k0, 0), T(0), S.data());
    if (!causal || tile.k1 <= tile.q0 + 1) return S;   // the whole tile lies on or below the diagonal
    for (std::size_t r = 0; r < tile.rows(); ++r)
        for (std::size_t c = 0; c < tile.cols(); ++c)
            if (tile.k0 + c > tile.q0 + r) S(r, c) = -std::numeric_limits<T>::infinity();   // key j > query i
    return S;
}

template <class T>
void add_weighted_values(Matrix<T>& O_i, const Matrix<T>& P, const Tensor3<T>& V, const Tile& tile) {
    const std::size_t d_v = V.shape(2);
    if (P.shape(0) != tile.rows() || P.shape(1) != tile.cols() || O_i.shape(0) != tile.rows() || O_i.shape(1) != d_v)
        throw std::invalid_argument("add_weighted_values: expected P (" + std::to_string(tile.rows()) + ", " +
                                    std::to_string(tile.cols()) + ") and O_i (" + std::to_string(tile.rows()) + ", " +
                                    std::to_string(d_v) + ") for the tile, got P (" + std::to_string(P.shape(0)) + ", " +
                                    std::to_string(P.shape(1)) + ") and O_i (" + std::to_string(O_i.shape(0)) + ", " +
                                    std::to_string(O_i.shape(1)) + ")");
    blas::gemm<T>(false, false, tile.rows(), d_v, tile.cols(), T(1), P.data(), &V(tile.b, tile.k0, 0), T(1), O_i.data());
}

template <class T>
void scale_rows(Matrix<T>& X, const Vector<T>& factors) {
    if (factors.size() != X.shape(0))
        throw std::invalid_argument("scale_rows: expected one factor per row (" + std::to_string(X.shape(0)) + "), got " +
                                    std::to_string(factors.size()));
    for (std::size_t r = 0; r < X.shape(0); ++r) row_math::scale(&X(r, 0), factors(r), X.shape(1));
}

namespace {

std::string shape_text(const std::array<std::size_t, 3>& s) {
    return "(" + std::to_string(s[0]) + ", " + std::to_string(s[1]) + ", " + std::to_string(s[2]) + ")";
}

}  // namespace

template <class T>
void check_tiled_inputs(const char* who, const Tensor3<T>& Q, const Tensor3<T>& K, const Tensor3<T>& V,
                        const KeyMask& mask, const Blocks& blocks) {
    const std::string shapes = "Q " + shape_text(Q.shape()) + ", K " + shape_text(K.shape()) + ", V " + shape_text(V.shape());
    const bool fit = K.shape(0) == Q.shape(0) && V.shape(0) == Q.shape(0) && K.shape(2) == Q.shape(2) &&
                     V.shape(1) == K.shape(1) && K.shape(1) > 0 && Q.shape(2) > 0;
    if (!fit)
        throw std::invalid_argument(std::string(who) + ": expected Q (batch, n_q, d), K (batch, n_k, d) and V (batch, n_k, "
                                    "d_v) with n_k, d >= 1, got " + shapes);
    if (mask.causal && Q.shape(1) != K.shape(1))
        throw std::invalid_argument(std::string(who) + ": a causal mask needs as many queries as keys (n_q == n_k), got " +
                                    shapes);
    if (mask.valid_lens.size() != 0 && mask.valid_lens.size() != Q.shape(0))
        throw std::invalid_argument(std::string(who) + ": valid_lens must hold one length per batch entry (" +
                                    std::to_string(Q.shape(0)) + "), got " + std::to_string(mask.valid_lens.size()));
    for (const std::int64_t length : mask.valid_lens)
        if (length < 0 || static_cast<std::size_t>(length) > K.shape(1))
            throw std::invalid_argument(std::string(who) + ": a valid length must be in [0, n_k] = [0, " +
                                        std::to_string(K.shape(1)) + "], got " + std::to_string(length));
    if (blocks.queries == 0 || blocks.keys == 0)
        throw std::invalid_argument(std::string(who) + ": block sizes must be at least 1, got " +
                                    std::to_string(blocks.queries) + " queries x " + std::to_string(blocks.keys) + " keys");
}

template <class T>
void check_forward_and_gradient(const char* who, const Tensor3<T>& Q, const Tensor3<T>& V,
                                const TiledAttention<T>& forward, const Tensor3<T>& dO) {
    const std::array<std::size_t, 3> output_shape{Q.shape(0), Q.shape(1), V.shape(2)};
    const bool fit = forward.output.shape() == output_shape && dO.shape() == output_shape &&
                     forward.log_sum_exp.shape(0) == Q.shape(0) && forward.log_sum_exp.shape(1) == Q.shape(1);
    if (!fit)
        throw std::invalid_argument(std::string(who) + ": expected the forward pass's output and dO shaped (batch, n_q, "
                                    "d_v) = " + shape_text(output_shape) + " and its log-sum-exp (batch, n_q), got output " +
                                    shape_text(forward.output.shape()) + ", dO " + shape_text(dO.shape()) +
                                    ", log-sum-exp (" + std::to_string(forward.log_sum_exp.shape(0)) + ", " +
                                    std::to_string(forward.log_sum_exp.shape(1)) + ")");
}

// ---- instantiations: do not edit ----
template void add_weighted_values(Matrix<float>&, const Matrix<float>&, const Tensor3<float>&, const Tile&);
template void add_weighted_values(Matrix<double>&, const Matrix<double>&, const Tensor3<double>&, const Tile&);
template void scale_rows(Matrix<float>&, const Vector<float>&);
template void scale_rows(Matrix<double>&, const Vector<double>&);
template Matrix<float> score_block(const Tensor3<float>&, const Tensor3<float>&, const Tile&, bool);
template Matrix<double> score_block(const Tensor3<double>&, const Tensor3<double>&, const Tile&, bool);
template void check_tiled_inputs(const char*, const Tensor3<float>&, const Tensor3<float>&, const Tensor3<float>&,
                                 const KeyMask&, const Blocks&);
template void check_tiled_inputs(const char*, const Tensor3<double>&, const Tensor3<double>&, const Tensor3<double>&,
                                 const KeyMask&, const Blocks&);
template void check_forward_and_gradient(const char*, const Tensor3<float>&, const Tensor3<float>&,
                                         const TiledAttention<float>&, const Tensor3<float>&);
template void check_forward_and_gradient(const char*, const Tensor3<double>&, const Tensor3<double>&,
                                         const TiledAttention<double>&, const Tensor3<double>&);

}  // namespace attn::ch08
