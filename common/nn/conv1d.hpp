// A 1-D convolution over a sequence, laid out like the rest of the course (positions along
// axis 1) and parameterised exactly like torch.nn.Conv1d. Introduced in chapter 04, where a
// stack of them is compared with self-attention and a GRU.
#pragma once
#include "common/nn/module.hpp"
#include "common/random.hpp"

namespace attn {

//   y[b, i, o] = bias[o] + sum_{j < k} sum_c weight[o, c, j] * x[b, i + j - p, c],   p = (k - 1) / 2
// with x = 0 outside [0, n) ("same" padding, so the length is kept): output i sees the inputs
// within p positions of it, its receptive field.
// x: (batch, n, in_channels) -> y: (batch, n, out_channels); weight (out, in, k), bias (out),
// as torch.nn.Conv1d(in, out, k, padding=p), which reads x as (batch, in, n) instead.
// Initialised uniformly in [-1/sqrt(in k), 1/sqrt(in k)], like PyTorch. k must be odd.
template <class T>
class Conv1d : public Module<T> {
public:
    Conv1d(std::size_t in_channels, std::size_t out_channels, std::size_t kernel_size, Rng& rng);
    Var<T> operator()(const Var<T>& x) const;

    std::size_t in_channels, out_channels, kernel_size;
    Var<T> weight, bias;
};

}  // namespace attn
