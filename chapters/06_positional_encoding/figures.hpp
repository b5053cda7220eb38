// The figures of chapter 06: the sinusoidal table as an image (position x dimension), a few
// of its columns as curves, and the similarity of every pair of codes, P_i . P_j.
#pragma once
#include "common/autodiff/var.hpp"
#include "common/plot.hpp"

#include <vector>

namespace attn::ch06 {

// P (n, d) with positions as rows and dimensions as columns, coloured from -1 to 1; every
// `tick_every`-th position and dimension labelled.
plot::Heatmap encoding_heatmap(const Array<double>& P, std::size_t tick_every);

// Columns `dimensions` of P (n, d) as curves over the positions, one per dimension, named
// by its function and pair ("dim 0: sin of pair 0").
plot::LinePlot encoding_curves(const Array<double>& P, const std::vector<std::size_t>& dimensions);

// S = P P^T (n, n): S[i, k] = P_i . P_k, every `tick_every`-th position labelled.
plot::Heatmap similarity_heatmap(const Array<double>& similarity, std::size_t tick_every);

}  // namespace attn::ch06
