// Chapter 04's heatmaps (see figures.hpp).
#include "chapters/04_self_attention/figures.hpp"

namespace attn::ch04 {

namespace {
plot::Heatmap square_heatmap(const Matrix<double>& values, const std::vector<std::string>& labels, const std::string& title,
                             const std::string& colorbar_label) {
    plot::Heatmap map;
    map.title = title;
    map.xlabel = "key j (looked at)";
    map.ylabel = "query i (looking)";
    map.values = values;
    map.x_tick_labels = labels;
    map.y_tick_labels = labels;
    map.colorbar_label = colorbar_label;
    map.z_min = 0.0;
    map.z_max = 1.0;
    return map;
}
}  // namespace

plot::Heatmap mask_heatmap(const ch03::Mask& blocked, const std::vector<std::string>& labels, const std::string& title) {
    // Category 0 (grey, the background) is a blocked cell, category 1 a cell query i may attend
    // to; the key repeats the mask's own values, true for blocked, so the figure reads like the code.
    const Matrix<double> allowed = xt::cast<double>(!xt::view(blocked, 0));
    plot::Heatmap map = square_heatmap(allowed, labels, title, "");
    map.categories = {"blocked (true)", "may attend (false)"};
    return map;
}

template <class T>
plot::Heatmap weights_heatmap(const Array<T>& weights, const std::vector<std::string>& labels, const std::string& title) {
    const Matrix<double> first = xt::cast<double>(xt::view(weights, 0));
    plot::Heatmap map = square_heatmap(first, labels, title, "attention weight");
    map.z_max.reset();              // from 0 to the largest weight: spread weights stay readable
    map.annotate = first.shape(0) <= 12;
    return map;
}

plot::LinePlot accuracy_by_distance_plot(const std::vector<std::string>& names,
                                         const std::vector<std::vector<double>>& accuracy,
                                         const std::vector<std::string>& buckets, const std::string& title) {
    plot::LinePlot figure;
    figure.title = title;
    figure.xlabel = "distance to the farthest other occurrence of the token";
    figure.ylabel = "test accuracy";
    for (std::size_t m = 0; m < names.size(); ++m) {
        plot::Series line{names[m], {}, {}};
        line.markers = true;
        for (std::size_t k = 0; k < accuracy[m].size(); ++k) {
            line.x.push_back(static_cast<double>(k));
            line.y.push_back(accuracy[m][k]);
        }
        figure.series.push_back(line);
    }
    figure.x_tick_labels = buckets;
    figure.y_min = 0.0;
    figure.y_max = 1.0;
    figure.legend = "bottom left";
    return figure;
}

std::vector<std::string> position_labels(std::size_t n) {
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < n; ++i) labels.push_back(std::to_string(i));
    return labels;
}

template plot::Heatmap weights_heatmap(const Array<float>&, const std::vector<std::string>&, const std::string&);
template plot::Heatmap weights_heatmap(const Array<double>&, const std::vector<std::string>&, const std::string&);

}  // namespace attn::ch04
