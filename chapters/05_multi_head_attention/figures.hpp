// The figures of chapter 05: the attention weights of every head of a layer, drawn side by
// side on one colour scale, so the heads can be compared at a glance, and the accuracy of the
// partner taggers against their number of heads.
#pragma once
#include "common/autodiff/var.hpp"
#include "common/plot.hpp"

#include <string>
#include <vector>

namespace attn::ch05 {

// Batch entry 0 of per-head weights (batch, heads, n_q, n_k) as a grid of `columns` panels per
// row, "head 1", "head 2", ..., queries as rows and keys as columns, on one colour scale from 0
// to the largest weight.
template <class T>
plot::HeatmapGrid heads_grid(const Array<T>& head_weights, const std::vector<std::string>& query_labels,
                             const std::vector<std::string>& key_labels, const std::string& title, std::size_t columns);

// Test accuracy against the number of heads, one marker per model, with chance and the best a
// model can do that mixes the two partners evenly (it cannot tell which digit is whose).
plot::LinePlot accuracy_by_heads_plot(const std::vector<std::size_t>& heads, const std::vector<double>& accuracy,
                                      double chance, double even_mix, const std::string& title);

}  // namespace attn::ch05
