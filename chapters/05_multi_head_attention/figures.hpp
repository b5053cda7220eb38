// The figures of chapter 05: the attention weights of every head of a layer, drawn side by
// side on one colour scale, so the heads can be compared at a glance.
#pragma once
#include "common/autodiff/var.hpp"
#include "common/plot.hpp"

#include <string>
#include <vector>

namespace attn::ch05 {

// Batch entry 0 of per-head weights (batch, heads, n_q, n_k): one block of n_k columns per
// head, left to right with a blank column between neighbours, the rows the queries; every
// column labelled with its key's name, the first of each block with the head's number too
// ("h1:the"). Coloured from 0 to the largest weight.
template <class T>
plot::Heatmap heads_heatmap(const Array<T>& head_weights, const std::vector<std::string>& query_labels,
                            const std::vector<std::string>& key_labels, const std::string& title);

}  // namespace attn::ch05
