// Tiled attention as one differentiable op: exercise 08.2 is its forward pass, exercise 08.3
// its backward pass, registered on the autodiff tape the way chapter 00 registers its softmax.
// Later chapters and bench/bench_attention.cpp call this for long sequences: its memory grows as
// n d, never n^2.
#pragma once
#include "chapters/08_attention_at_scale/tiles.hpp"
#include "common/autodiff/var.hpp"

namespace attn::ch08 {

// O = softmax(Q K^T / sqrt(d) + mask) V, what chapter 03's scaled_dot_product_attention returns
// as its output (the weights are never formed, so there are none to return).
// Q (batch, n_q, d), K (batch, n_k, d), V (batch, n_k, d_v) -> O (batch, n_q, d_v).
// The backward pass recomputes the probabilities tile by tile from the forward's log-sum-exp,
// the only thing kept besides O. Q, K and V may be one Var (self-attention): its three
// gradients are added. Throws std::invalid_argument if the shapes, the mask or the blocks do
// not fit.
template <class T>
Var<T> tiled_attention(const Var<T>& Q, const Var<T>& K, const Var<T>& V, const KeyMask& mask = {},
                       const Blocks& blocks = {});

}  // namespace attn::ch08
