// The figures of chapter 03: kernel regression fits, their attention weights, and the sqrt(d)
// experiment.
#pragma once
#include "chapters/03_queries_keys_values/kernel_regression.hpp"
#include "chapters/03_queries_keys_values/scaling.hpp"
#include "common/plot.hpp"

#include <string>
#include <utility>
#include <vector>

namespace attn::ch03 {

// The truth, the training points and one curve per (label, fit).
plot::LinePlot regression_fits(const RegressionData& data, const std::vector<std::pair<std::string, Fit>>& fits);
// Queries (test inputs) x keys (training inputs): where each prediction looks.
plot::Heatmap kernel_weights(const RegressionData& data, const Fit& fit, const std::string& title);
plot::LinePlot width_training_curve(const std::vector<double>& loss);

plot::LinePlot score_variance(const std::vector<ScalingRow>& rows);
plot::LinePlot softmax_saturation(const std::vector<ScalingRow>& rows, int n_keys);
plot::LinePlot gradient_through_softmax(const std::vector<ScalingRow>& rows);

}  // namespace attn::ch03
