// Conv2d (see conv2d.hpp) as im2col and one matrix product, like Conv1d: pixel (b, r, c) of
// the "columns" tensor lists the k^2 input vectors that output (r, c) sees, and a single gemm
// through BLAS multiplies every pixel by the flattened kernel. The gradients come from the
// ops it is built of.
#include "common/nn/conv2d.hpp"

#include "common/autodiff/ops.hpp"
#include "common/nn/layers.hpp"

#include <cmath>
#include <stdexcept>

namespace attn {

template <class T>
Conv2d<T>::Conv2d(std::size_t in, std::size_t out, std::size_t k, Rng& rng)
    : in_channels(in), out_channels(out), kernel_size(k) {
    if (in == 0 || out == 0 || k % 2 == 0)
        throw std::invalid_argument("Conv2d: expected channels > 0 and an odd kernel size (so that padding (k - 1) / 2 "
                                    "keeps the grid's size), got in " + std::to_string(in) + ", out " +
                                    std::to_string(out) + ", k " + std::to_string(k));
    // PyTorch's default: kaiming_uniform(a = sqrt(5)) on the weight, which is this bound.
    const double bound = 1.0 / std::sqrt(static_cast<double>(in * k * k));
    weight = this->register_parameter("weight", uniform_array<T>({out, in, k, k}, bound, rng));
    bias = this->register_parameter("bias", uniform_array<T>({out}, bound, rng));
}

namespace {

// x with p zero rows (or columns) on both sides of `axis`.
template <class T>
Var<T> pad_with_zeros(const Var<T>& x, std::size_t axis, std::size_t p) {
    if (p == 0) return x;
    Shape side = x.shape();
    side[axis] = p;
    const Var<T> zeros = constant<T>(Array<T>(xt::zeros<T>(side)));
    return concat<T>({zeros, x, zeros}, axis);
}

}  // namespace

template <class T>
Var<T> Conv2d<T>::operator()(const Var<T>& x) const {
    if (x.dim() != 4 || x.shape(3) != in_channels)
        throw std::invalid_argument("Conv2d: expected x (batch, H, W, " + std::to_string(in_channels) + "), got " +
                                    shape_string(x.shape()));
    const std::size_t H = x.shape(1), W = x.shape(2), k = kernel_size, p = (k - 1) / 2;
    const Var<T> padded = pad_with_zeros(pad_with_zeros(x, 1, p), 2, p);   // (batch, H + 2p, W + 2p, in)
    // Shift (u, v) holds x[b, r + u - p, c + v - p, :] at (r, c), so column block u k + v of
    // `columns` meets kernel tap (u, v).
    std::vector<Var<T>> shifts;
    for (std::size_t u = 0; u < k; ++u) {
        const Var<T> rows = slice(padded, 1, u, u + H);                          // (batch, H, W + 2p, in)
        for (std::size_t v = 0; v < k; ++v) shifts.push_back(slice(rows, 2, v, v + W));   // (batch, H, W, in)
    }
    const Var<T> columns = concat(shifts, 3);                                   // (batch, H, W, k k in)
    // weight[o, ch, u, v] must sit at column (u k + v) in + ch, the order of `columns`.
    const Var<T> kernel = reshape(permute(weight, {0, 2, 3, 1}), {out_channels, k * k * in_channels});
    return matmul(columns, kernel, false, true) + bias;                         // (batch, H, W, out)
}

// ---- instantiations: do not edit ----
template class Conv2d<float>;
template class Conv2d<double>;

}  // namespace attn
