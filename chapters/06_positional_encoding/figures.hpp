// The figures of chapter 06: the sinusoidal table as an image (position x dimension), a few
// of its columns as curves, and the similarity of every pair of codes, P_i . P_j; then the
// trained taggers' accuracy, per model and by test length.
#pragma once
#include "common/autodiff/var.hpp"
#include "common/plot.hpp"

#include <string>
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

// One model's line in the accuracy figures: its accuracy by length, or by measure.
struct ModelAccuracy {
    std::string model;
    std::vector<double> accuracy;
};

// Per measure (x axis, labelled by name), each model's accuracy (models[m].accuracy[k] for
// measures[k]) as points in the model's colour -- the same colours as in
// accuracy_by_length_plot -- and a reference line at `chance`.
plot::LinePlot accuracy_by_measure_plot(const std::vector<std::string>& measures, const std::vector<ModelAccuracy>& models,
                                        double chance, const std::string& title);

// Per-token accuracy against the test length (lengths[k] for accuracy[k]), one line per
// model, a vertical line at the longest training length and a reference line at `chance`.
plot::LinePlot accuracy_by_length_plot(const std::vector<std::size_t>& lengths, const std::vector<ModelAccuracy>& models,
                                       std::size_t longest_trained, double chance, const std::string& title);

}  // namespace attn::ch06
