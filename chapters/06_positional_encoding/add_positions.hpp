// Exercise 06.3: scaled embeddings plus positions, equation (6.3).
#pragma once
#include "common/autodiff/var.hpp"

namespace attn::ch06 {

// The input of a Transformer: each position's embedding, scaled by sqrt(d), plus the code of
// its position,
//   X'[b, i] = sqrt(d) X[b, i] + P[i],   P = sinusoidal_encoding(n, d)                (6.3)
// X (batch, n, d) -> X' (batch, n, d). Why the scale: Transformer embeddings are usually
// initialised with small entries (about 1/sqrt(d) with Xavier's initialisation, at most 0.1
// in PyTorch's language-model tutorial), while every entry of P is in [-1, 1]; unscaled, the
// sum would be mostly position and little word. Multiplying the embeddings, not P, by
// sqrt(d) brings them to the table's size (the Transformer paper and PyTorch-style
// tutorials do the same). (The course's Embedding starts at N(0, 1), like PyTorch's
// nn.Embedding; chapter 07 decides how its Transformer initialises them.) P is a constant:
// gradients flow to X only. Throws std::invalid_argument if X is not 3-D or d is odd.
template <class T>
Var<T> add_positions(const Var<T>& X);

}  // namespace attn::ch06
