// Batch normalisation, the alternative that part 9 measures against layer normalisation:
// every feature is normalised with statistics taken over the whole training batch -- all its
// sequences and all their positions -- as torch.nn.BatchNorm1d does on (batch, features,
// length) input (here the features are the last axis). Evaluation cannot use batch
// statistics (a sentence is translated alone, one position at a time), so training keeps
// running averages of them, and evaluation normalises with those.
#pragma once
#include "common/autodiff/var.hpp"

namespace attn::ch07 {

// BatchNorm1d's buffers: the running mean and (unbiased) variance of every feature, starting
// at 0 and 1, and how many training batches have updated them (num_batches_tracked).
template <class T>
struct RunningStatistics {
    Array<T> mean, variance;
    std::size_t batches = 0;
};

template <class T>
RunningStatistics<T> fresh_statistics(std::size_t features);

// x (..., features). Training: over every entry of the leading axes (padded positions
// included, as BatchNorm1d counts them: the batch is normalised as it comes),
//   mu = mean(x),  var = mean((x - mu)^2)    (biased, as in (7.1) but down the batch)
//   y = (x - mu) / sqrt(var + eps) * weight + bias
// and the running averages move towards this batch's statistics:
//   running = (1 - momentum) running + momentum * statistic   (the variance unbiased, N / (N - 1))
// Evaluation: y = (x - running mean) / sqrt(running variance + eps) * weight + bias, each
// position on its own, so a sentence's output no longer depends on its neighbours.
// Built from autodiff ops, so gradients flow to x, weight and bias.
template <class T>
Var<T> batch_norm(const Var<T>& x, const Var<T>& weight, const Var<T>& bias, RunningStatistics<T>& running,
                  bool training, double momentum = 0.1, double eps = 1e-5);

}  // namespace attn::ch07
