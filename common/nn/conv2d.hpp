// A 2-D convolution over a grid, laid out like the rest of the course (the channels on the
// last axis) and parameterised exactly like torch.nn.Conv2d. Introduced in chapter 04, where
// a stack of them over an image's patches is compared with self-attention.
#pragma once
#include "common/nn/module.hpp"
#include "common/random.hpp"

namespace attn {

//   y[b, r, c, o] = bias[o] + sum_{u, v < k} sum_ch weight[o, ch, u, v] * x[b, r + u - p, c + v - p, ch]
// with p = (k - 1) / 2 and x = 0 outside the grid ("same" padding, so the grid keeps its
// size): output (r, c) sees the inputs in the k x k square around it, its receptive field;
// after L layers of k = 3 that is the (2L + 1) x (2L + 1) square.
// x: (batch, H, W, in_channels) -> y: (batch, H, W, out_channels); weight (out, in, k, k),
// bias (out), as torch.nn.Conv2d(in, out, k, padding=p), which reads x as (batch, in, H, W)
// instead. Initialised uniformly in [-1/sqrt(in k k), 1/sqrt(in k k)], like PyTorch. Square
// kernels only, stride 1; k must be odd.
template <class T>
class Conv2d : public Module<T> {
public:
    Conv2d(std::size_t in_channels, std::size_t out_channels, std::size_t kernel_size, Rng& rng);
    Var<T> operator()(const Var<T>& x) const;

    std::size_t in_channels, out_channels, kernel_size;
    Var<T> weight, bias;
};

}  // namespace attn
