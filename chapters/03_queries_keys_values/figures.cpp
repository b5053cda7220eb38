// The figures of chapter 03 (see figures.hpp).
#include "chapters/03_queries_keys_values/figures.hpp"

#include <cmath>
#include <cstdio>

namespace attn::ch03 {

namespace {
std::string one_decimal(double x) {
    char text[16];
    std::snprintf(text, sizeof text, "%.1f", x);
    return text;
}
// Every `every`-th position labelled with its input value, the others blank: 50 labels would collide.
std::vector<std::string> sparse_labels(const std::vector<double>& xs, std::size_t every) {
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < xs.size(); ++i) labels.push_back(i % every == 0 ? one_decimal(xs[i]) : "");
    return labels;
}
template <class F>
std::vector<double> column(const std::vector<ScalingRow>& rows, F field) {
    std::vector<double> values;
    for (const ScalingRow& row : rows) values.push_back(field(row));
    return values;
}
}  // namespace

plot::LinePlot regression_fits(const RegressionData& data, const std::vector<std::pair<std::string, Fit>>& fits) {
    plot::LinePlot plot;
    plot.title = "Nadaraya-Watson regression: y = 2 sin(x) + x^0.8 + noise";
    plot.xlabel = "x (query)";
    plot.ylabel = "y";
    plot.series.push_back({"truth", data.x_test, data.y_truth});
    plot.series.push_back({"training data (keys, values)", data.x_train, data.y_train, true});
    for (const auto& [label, fit] : fits) plot.series.push_back({label, data.x_test, fit.prediction});
    plot.legend = "outside";
    return plot;
}

plot::Heatmap kernel_weights(const RegressionData& data, const Fit& fit, const std::string& title) {
    plot::Heatmap map;
    map.title = title;
    map.xlabel = "training input x_i (key)";
    map.ylabel = "test input x (query)";
    map.values = fit.weights;
    map.x_tick_labels = sparse_labels(data.x_train, 7);
    map.y_tick_labels = sparse_labels(data.x_test, 5);
    map.colorbar_label = "attention weight";
    return map;
}

plot::LinePlot width_training_curve(const std::vector<double>& loss) {
    plot::LinePlot plot;
    plot.title = "Learning the kernel width by leave-one-out";
    plot.xlabel = "step";
    plot.ylabel = "leave-one-out mean squared error";
    std::vector<double> steps;
    for (std::size_t i = 0; i < loss.size(); ++i) steps.push_back(static_cast<double>(i + 1));
    plot.series.push_back({"", steps, loss});
    return plot;
}

plot::LinePlot score_variance(const std::vector<ScalingRow>& rows) {
    plot::LinePlot plot;
    plot.title = "Variance of a dot product of random unit-variance vectors";
    plot.xlabel = "dimension d";
    plot.ylabel = "variance of the score";
    plot.log_x = plot.log_y = true;
    const std::vector<double> d = column(rows, [](const ScalingRow& r) { return static_cast<double>(r.d); });
    plot.series.push_back({"q . k", d, column(rows, [](const ScalingRow& r) { return r.score_variance; }), false, true});
    plot.series.push_back({"q . k / sqrt(d)", d, column(rows, [](const ScalingRow& r) { return r.scaled_score_variance; }), false, true});
    plot::Series theory{"d (theory)", d, d};
    theory.reference = true;
    plot.series.push_back(theory);
    plot.legend = "top left";
    return plot;
}

plot::LinePlot softmax_saturation(const std::vector<ScalingRow>& rows, int n_keys) {
    plot::LinePlot plot;
    plot.title = "Softmax over " + std::to_string(n_keys) + " random keys, with and without 1/sqrt(d)";
    plot.xlabel = "dimension d";
    plot.ylabel = "mean over queries";
    plot.log_x = true;
    plot.y_min = 0.0;
    plot.y_max = 1.0;
    const std::vector<double> d = column(rows, [](const ScalingRow& r) { return static_cast<double>(r.d); });
    const auto normalised = [n_keys](double entropy) { return entropy / std::log(static_cast<double>(n_keys)); };
    plot.series.push_back({"q . k: largest weight", d, column(rows, [](const ScalingRow& r) { return r.max_weight; }), false, true});
    plot.series.push_back({"q . k: entropy / ln n", d, column(rows, [&](const ScalingRow& r) { return normalised(r.entropy); }), false, true, true});
    // The scaled scores in the same colour as in the other two figures of the experiment.
    plot.series.push_back({"q . k / sqrt(d): largest weight", d, column(rows, [](const ScalingRow& r) { return r.scaled_max_weight; }), false, true, false, false, 1});
    plot.series.push_back({"q . k / sqrt(d): entropy / ln n", d, column(rows, [&](const ScalingRow& r) { return normalised(r.scaled_entropy); }), false, true, true});
    plot.legend = "center right";
    return plot;
}

plot::LinePlot gradient_through_softmax(const std::vector<ScalingRow>& rows) {
    plot::LinePlot plot;
    plot.title = "The gradient that reaches the scores through the softmax";
    plot.xlabel = "dimension d";
    plot.ylabel = "|d loss / d scores| (mean)";
    plot.log_x = plot.log_y = true;
    const std::vector<double> d = column(rows, [](const ScalingRow& r) { return static_cast<double>(r.d); });
    plot.series.push_back({"unscaled q . k", d, column(rows, [](const ScalingRow& r) { return r.gradient_norm; }), false, true});
    plot.series.push_back({"scaled q . k / sqrt(d)", d, column(rows, [](const ScalingRow& r) { return r.scaled_gradient_norm; }), false, true});
    plot.legend = "bottom left";
    return plot;
}

}  // namespace attn::ch03
