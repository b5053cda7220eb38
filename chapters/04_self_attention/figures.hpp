// The figures of chapter 04: masks and attention weights as square heatmaps, one row per
// query, one column per key, both labelled with the positions' names.
#pragma once
#include "chapters/03_queries_keys_values/attention.hpp"
#include "common/plot.hpp"

#include <string>
#include <vector>

namespace attn::ch04 {

// Batch entry 0 of a mask in two colours with a key: "blocked (true)" and "may attend (false)".
plot::Heatmap mask_heatmap(const ch03::Mask& blocked, const std::vector<std::string>& labels, const std::string& title);

// Batch entry 0 of attention weights (batch, n, n), coloured from 0 to the largest weight,
// each cell labelled with its weight when n <= 12.
template <class T>
plot::Heatmap weights_heatmap(const Array<T>& weights, const std::vector<std::string>& labels, const std::string& title);

// Test accuracy against the distance bucket of the counting task, one line per tagger:
// names[m]'s accuracies are accuracy[m][bucket], bucket k labelled buckets[k] on the x axis.
plot::LinePlot accuracy_by_distance_plot(const std::vector<std::string>& names,
                                         const std::vector<std::vector<double>>& accuracy,
                                         const std::vector<std::string>& buckets, const std::string& title);

// "0", "1", ..., "n-1": labels for positions that have no names.
std::vector<std::string> position_labels(std::size_t n);

}  // namespace attn::ch04
