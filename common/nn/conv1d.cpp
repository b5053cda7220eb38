// Conv1d (see conv1d.hpp) as im2col and one matrix product: row (b, i) of the "columns"
// matrix lists the k input vectors that output i sees, and a single gemm through BLAS
// multiplies every row by the flattened kernel. The gradients come from the ops it is built of.
#include "common/nn/conv1d.hpp"

#include "common/autodiff/ops.hpp"
#include "common/nn/layers.hpp"

#include <cmath>
#include <stdexcept>

namespace attn {

template <class T>
Conv1d<T>::Conv1d(std::size_t in, std::size_t out, std::size_t k, Rng& rng)
    : in_channels(in), out_channels(out), kernel_size(k) {
    if (in == 0 || out == 0 || k % 2 == 0)
        throw std::invalid_argument("Conv1d: expected channels > 0 and an odd kernel size (so that padding (k - 1) / 2 "
                                    "keeps the length), got in " + std::to_string(in) + ", out " + std::to_string(out) +
                                    ", k " + std::to_string(k));
    // PyTorch's default: kaiming_uniform(a = sqrt(5)) on the weight, which is this bound.
    const double bound = 1.0 / std::sqrt(static_cast<double>(in * k));
    weight = this->register_parameter("weight", uniform_array<T>({out, in, k}, bound, rng));
    bias = this->register_parameter("bias", uniform_array<T>({out}, bound, rng));
}

template <class T>
Var<T> Conv1d<T>::operator()(const Var<T>& x) const {
    if (x.dim() != 3 || x.shape(2) != in_channels)
        throw std::invalid_argument("Conv1d: expected x (batch, n, " + std::to_string(in_channels) + "), got " +
                                    shape_string(x.shape()));
    const std::size_t batch = x.shape(0), n = x.shape(1), k = kernel_size, p = (k - 1) / 2;
    Var<T> padded = x;
    if (p > 0) {
        const Var<T> zeros = constant<T>(xt::zeros<T>({batch, p, in_channels}));   // (batch, p, in)
        padded = concat<T>({zeros, x, zeros}, 1);                                  // (batch, n + 2p, in)
    }
    // Shift j holds x[b, i + j - p, :] at row i, so column block j of `columns` meets kernel tap j.
    std::vector<Var<T>> shifts;
    for (std::size_t j = 0; j < k; ++j) shifts.push_back(slice(padded, 1, j, j + n));   // (batch, n, in) each
    const Var<T> columns = concat(shifts, 2);                                   // (batch, n, k in)
    // weight[o, c, j] must sit at column j * in + c, the order of `columns`.
    const Var<T> W = reshape(permute(weight, {0, 2, 1}), {out_channels, k * in_channels});   // (out, k in)
    return matmul(columns, W, false, true) + bias;                             // (batch, n, out)
}

// ---- instantiations: do not edit ----
template class Conv1d<float>;
template class Conv1d<double>;

}  // namespace attn
