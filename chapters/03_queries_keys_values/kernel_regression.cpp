// Nadaraya-Watson kernel regression (see kernel_regression.hpp). Every fit goes through
// exercise 03.1, gaussian_kernel_pooling.
#include "chapters/03_queries_keys_values/kernel_regression.hpp"

#include "chapters/03_queries_keys_values/gaussian_kernel_pooling.hpp"
#include "common/autodiff/ops.hpp"
#include "common/nn/optim.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace attn::ch03 {

namespace {
Var<double> vector_var(const std::vector<double>& values) {
    Array<double> array = xt::zeros<double>({values.size()});
    std::copy(values.begin(), values.end(), array.begin());
    return constant<double>(array);
}
Var<double> scalar_var(double value) { return constant<double>(Array<double>{value}); }
}  // namespace

double regression_truth(double x) { return 2 * std::sin(x) + std::pow(x, 0.8); }

RegressionData make_regression_data(std::size_t n_train, std::size_t n_test, Rng& rng) {
    RegressionData data;
    for (std::size_t i = 0; i < n_train; ++i) data.x_train.push_back(rng.uniform(0.0, 5.0));
    std::sort(data.x_train.begin(), data.x_train.end());
    for (const double x : data.x_train) data.y_train.push_back(regression_truth(x) + rng.normal(0.0, 0.5));
    for (std::size_t i = 0; i < n_test; ++i) {
        const double x = 5.0 * static_cast<double>(i) / static_cast<double>(n_test - 1);
        data.x_test.push_back(x);
        data.y_truth.push_back(regression_truth(x));
    }
    return data;
}

Fit fit_at_width(const RegressionData& data, double width) {
    const NoGradGuard no_grad;
    const Attention<double> pooled = gaussian_kernel_pooling(vector_var(data.x_test), vector_var(data.x_train),
                                                             vector_var(data.y_train), scalar_var(width), false);
    const Array<double>& out = pooled.output.value();
    return {std::vector<double>(out.begin(), out.end()), pooled.weights.value()};
}

double leave_one_out_error(const RegressionData& data, double width) {
    const NoGradGuard no_grad;
    const Var<double> x = vector_var(data.x_train), y = vector_var(data.y_train);
    const Var<double> residual = gaussian_kernel_pooling(x, x, y, scalar_var(width), true).output - y;
    return mean(residual * residual).item();
}

WidthTraining learn_width(const RegressionData& data, double initial_width, int steps, double lr) {
    const Var<double> x = vector_var(data.x_train), y = vector_var(data.y_train);
    const Var<double> width = parameter<double>(Array<double>{initial_width});
    Adam<double> optimizer({width}, lr);
    WidthTraining training;
    for (int step = 0; step < steps; ++step) {
        optimizer.zero_grad();
        const Var<double> residual = gaussian_kernel_pooling(x, x, y, width, true).output - y;
        const Var<double> loss = mean(residual * residual);
        if (!std::isfinite(loss.item()))
            throw std::runtime_error("the leave-one-out loss became " + std::to_string(loss.item()) + " at step " +
                                     std::to_string(step) + "; is gaussian_kernel_pooling (03.1) right?");
        training.loss.push_back(loss.item());
        backward(loss);
        optimizer.step();
    }
    // w and -w give the same kernel; report the positive one.
    training.width = std::abs(width.item());
    return training;
}

double error_against_truth(const RegressionData& data, const std::vector<double>& prediction) {
    double total = 0;
    for (std::size_t i = 0; i < prediction.size(); ++i)
        total += (prediction[i] - data.y_truth[i]) * (prediction[i] - data.y_truth[i]);
    return total / static_cast<double>(prediction.size());
}

}  // namespace attn::ch03
