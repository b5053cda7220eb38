// The chapter's figures (see figures.hpp).
#include "chapters/00_foundations/figures.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace attn::ch00 {

plot::Heatmap temperature_heatmap(const std::vector<std::string>& tokens, const Matrix<double>& probabilities,
                                  const std::vector<double>& temperatures) {
    plot::Heatmap figure;
    figure.title = "softmax(z / tau): low temperature sharpens, high temperature flattens";
    figure.xlabel = "token";
    figure.ylabel = "temperature tau";
    figure.values = probabilities;
    figure.x_tick_labels = tokens;
    for (const double tau : temperatures) {
        char label[32];
        std::snprintf(label, sizeof label, "tau = %g", tau);
        figure.y_tick_labels.push_back(label);
    }
    figure.colorbar_label = "probability";
    figure.z_min = 0.0;
    figure.z_max = 1.0;
    figure.annotate = true;
    return figure;
}

plot::LinePlot temperature_curves(const std::vector<std::string>& tokens, const std::vector<double>& sweep,
                                  const Matrix<double>& probabilities) {
    plot::LinePlot figure;
    figure.title = "Each token's probability as the temperature grows";
    figure.xlabel = "temperature tau (log scale)";
    figure.ylabel = "softmax(z / tau)";
    figure.log_x = true;
    figure.y_min = 0.0;
    figure.y_max = 1.0;
    for (std::size_t c = 0; c < tokens.size(); ++c) {
        plot::Series curve{tokens[c], sweep, {}, false};
        for (std::size_t r = 0; r < sweep.size(); ++r) curve.y.push_back(probabilities(r, c));
        figure.series.push_back(curve);
    }
    return figure;
}

plot::RegionPlot decision_regions(const LinearClassifier& model, const LabelledPoints& points) {
    plot::RegionPlot figure;
    figure.title = "Decision regions of the trained softmax classifier (test points)";
    figure.xlabel = "x1";
    figure.ylabel = "x2";
    figure.class_names = class_names();
    const double margin = 0.5;
    figure.x_min = xt::amin(xt::view(points.X, xt::all(), 0))() - margin;
    figure.x_max = xt::amax(xt::view(points.X, xt::all(), 0))() + margin;
    figure.y_min = xt::amin(xt::view(points.X, xt::all(), 1))() - margin;
    figure.y_max = xt::amax(xt::view(points.X, xt::all(), 1))() + margin;
    figure.grid_class = predict_grid(model, figure.x_min, figure.x_max, figure.y_min, figure.y_max, 200, 200);
    for (std::size_t n = 0; n < points.labels.size(); ++n) {
        figure.point_x.push_back(points.X(n, 0));
        figure.point_y.push_back(points.X(n, 1));
    }
    figure.point_class = points.labels;
    return figure;
}

plot::LinePlot loss_curves(const std::vector<double>& train_loss, const std::vector<double>& test_loss) {
    plot::LinePlot figure;
    figure.title = "Cross-entropy during gradient descent";
    figure.xlabel = "step";
    figure.ylabel = "loss (nats)";
    std::vector<double> steps(train_loss.size());
    for (std::size_t s = 0; s < steps.size(); ++s) steps[s] = static_cast<double>(s);
    figure.series.push_back({"train", steps, train_loss, false});
    figure.series.push_back({"test", steps, test_loss, false});
    figure.y_min = 0.0;
    return figure;
}

}  // namespace attn::ch00
