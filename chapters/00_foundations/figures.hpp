// The chapter's figures: softmax against temperature, the decision regions of the trained
// classifier, and its loss curves. Each returns the plot it saved.
#pragma once
#include "chapters/00_foundations/classifier.hpp"
#include "chapters/00_foundations/toy_data.hpp"
#include "common/plot.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace attn::ch00 {

// Probabilities softmax(z / tau) for each temperature (rows) and token (columns).
plot::Heatmap temperature_heatmap(const std::vector<std::string>& tokens, const Matrix<double>& probabilities,
                                  const std::vector<double>& temperatures);

// Each token's probability as the temperature sweeps `sweep`.
plot::LinePlot temperature_curves(const std::vector<std::string>& tokens, const std::vector<double>& sweep,
                                  const Matrix<double>& probabilities);

plot::RegionPlot decision_regions(const LinearClassifier& model, const LabelledPoints& points);

plot::LinePlot loss_curves(const std::vector<double>& train_loss, const std::vector<double>& test_loss);

}  // namespace attn::ch00
