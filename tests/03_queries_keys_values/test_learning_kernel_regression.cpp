// Chapter 03's model code: the kernel regression data, and the kernel width learned by
// leave-one-out (a learning test: a fixed seed and thresholds).
#include "chapters/03_queries_keys_values/kernel_regression.hpp"
#include "chapters/03_queries_keys_values/scaling.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

using namespace attn::ch03;

TEST_CASE("ch03 model: the regression data follow y = 2 sin x + x^0.8 with noise of sd 0.5" * doctest::test_suite("ch03")) {
    attn::Rng rng(7);
    const RegressionData data = make_regression_data(2000, 11, rng);
    double sum = 0, sum_sq = 0;
    for (std::size_t i = 0; i < data.x_train.size(); ++i) {
        CHECK(data.x_train[i] >= 0.0);
        CHECK(data.x_train[i] < 5.0);
        if (i > 0) CHECK(data.x_train[i] >= data.x_train[i - 1]);
        const double noise = data.y_train[i] - regression_truth(data.x_train[i]);
        sum += noise;
        sum_sq += noise * noise;
    }
    const double n = static_cast<double>(data.x_train.size());
    CHECK(std::abs(sum / n) < 0.05);                       // mean 0 (3 standard errors: 0.034)
    CHECK(std::sqrt(sum_sq / n) == doctest::Approx(0.5).epsilon(0.05));
    CHECK(data.x_test.front() == 0.0);
    CHECK(data.x_test.back() == 5.0);
    CHECK(data.y_truth[10] == doctest::Approx(2 * std::sin(5.0) + std::pow(5.0, 0.8)));
}

TEST_CASE("ch03 learning: leave-one-out learns a width that beats average pooling and a very narrow kernel" *
          doctest::test_suite("ch03.learning")) {
    attn::Rng rng(42);
    const RegressionData data = make_regression_data(50, 50, rng);
    const WidthTraining training = learn_width(data, 1.0, 300, 0.2);   // the chapter's default settings
    CHECK(training.loss.back() < training.loss.front());
    CHECK(training.width > 2.0);    // narrower than where it started ...
    CHECK(training.width < 15.0);   // ... but not collapsed onto single points
    // It found the bottom of the leave-one-out error: no width on a grid does clearly better.
    const double learned = leave_one_out_error(data, training.width);
    double best_on_grid = 1e9;
    for (double w = 0.5; w <= 30.0; w += 0.5) best_on_grid = std::min(best_on_grid, leave_one_out_error(data, w));
    CHECK(learned < best_on_grid + 1e-3);
    CHECK(learned < leave_one_out_error(data, 0.0));
    CHECK(error_against_truth(data, fit_at_width(data, training.width).prediction) <
          0.5 * error_against_truth(data, fit_at_width(data, 0.0).prediction));
}

TEST_CASE("ch03 model: unscaled scores have variance d and saturate the softmax; scaled ones do not" *
          doctest::test_suite("ch03")) {
    attn::Rng rng(3);
    const std::vector<ScalingRow> rows = measure_scaling({4, 256}, 32, 400, rng);
    for (const ScalingRow& row : rows) {
        CHECK(row.score_variance / row.d == doctest::Approx(1.0).epsilon(0.15));
        CHECK(row.scaled_score_variance == doctest::Approx(1.0).epsilon(0.15));
    }
    CHECK(rows[1].max_weight > 0.8);                            // one key takes nearly everything
    CHECK(rows[1].scaled_max_weight < 0.35);
    CHECK(rows[1].scaled_gradient_norm > 2 * rows[1].gradient_norm);   // a saturated softmax passes little back
}
