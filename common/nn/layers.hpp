// The layers no chapter teaches: Linear, Embedding and Dropout, initialised as PyTorch does
// and with the same parameter names and layouts. Introduced in chapter 01.
#pragma once
#include "common/nn/module.hpp"
#include "common/random.hpp"

#include <cstdint>

namespace attn {

// y = x W^T + b     x: (..., in) -> y: (..., out);  weight (out, in), bias (out)
// Initialised uniformly in [-1/sqrt(in), 1/sqrt(in)], like torch.nn.Linear.
template <class T>
class Linear : public Module<T> {
public:
    Linear(std::size_t in_features, std::size_t out_features, Rng& rng, bool bias = true);
    Var<T> operator()(const Var<T>& x) const;

    Var<T> weight, bias;   // bias is empty when built without one
};

// Row i of `weight` is the vector of token i:  ids (...) -> (..., dim). Initialised N(0, 1),
// like torch.nn.Embedding.
template <class T>
class Embedding : public Module<T> {
public:
    Embedding(std::size_t vocab_size, std::size_t dim, Rng& rng);
    Var<T> operator()(const xt::xarray<std::int64_t>& ids) const;

    Var<T> weight;
};

// Zeroes entries with probability p while training (scaling the rest by 1 / (1 - p)); does
// nothing in evaluation. Has its own seeded generator so runs are reproducible.
template <class T>
class Dropout : public Module<T> {
public:
    Dropout(double p, std::uint64_t seed);
    Var<T> operator()(const Var<T>& x);

private:
    double p_;
    Rng rng_;
};

// Uniform values in [-bound, bound] of the given shape.
template <class T> Array<T> uniform_array(const Shape& shape, double bound, Rng& rng);

}  // namespace attn
