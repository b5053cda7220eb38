// Nadaraya-Watson kernel regression, the chapter's first attention model: the data, the fit
// at a given kernel width, and the width learned by leave-one-out.
#pragma once
#include "common/random.hpp"
#include "common/tensor.hpp"

#include <vector>

namespace attn::ch03 {

// The lesson's data: y = 2 sin x + x^0.8 + noise, noise ~ N(0, 0.5^2), training inputs drawn
// uniformly from [0, 5] and sorted; test inputs evenly spaced on [0, 5] with the noiseless truth.
struct RegressionData {
    std::vector<double> x_train, y_train;
    std::vector<double> x_test, y_truth;
};
double regression_truth(double x);
RegressionData make_regression_data(std::size_t n_train, std::size_t n_test, Rng& rng);

// Predictions at x_test with kernel width w (w = 0: every training point weighs the same,
// average pooling), and the attention weights used: (n_test, n_train).
struct Fit {
    std::vector<double> prediction;
    Matrix<double> weights;
};
Fit fit_at_width(const RegressionData& data, double width);

// Learns w by gradient descent (Adam) on the leave-one-out squared error: each training point
// is predicted from the others only. (Predicting a point from itself as well rewards w -> inf:
// a kernel so narrow that each point is its own prediction, with zero error and no use.)
struct WidthTraining {
    double width = 0;
    std::vector<double> loss;   // leave-one-out mean squared error, per step
};
WidthTraining learn_width(const RegressionData& data, double initial_width, int steps, double lr);

// Leave-one-out mean squared error at width w, and squared error of a fit against the truth.
double leave_one_out_error(const RegressionData& data, double width);
double error_against_truth(const RegressionData& data, const std::vector<double>& prediction);

}  // namespace attn::ch03
