// Chapter 05's heatmaps (see figures.hpp).
#include "chapters/05_multi_head_attention/figures.hpp"

#include "common/xtensor_compat.hpp"

namespace attn::ch05 {

template <class T>
plot::HeatmapGrid heads_grid(const Array<T>& head_weights, const std::vector<std::string>& query_labels,
                             const std::vector<std::string>& key_labels, const std::string& title, std::size_t columns) {
    plot::HeatmapGrid grid;
    grid.title = title;
    grid.columns = columns;
    grid.colorbar_label = "attention weight";
    grid.z_min = 0.0;
    for (std::size_t h = 0; h < head_weights.shape(1); ++h) {
        plot::Heatmap panel;
        panel.title = "head " + std::to_string(h + 1);
        panel.xlabel = "key j (looked at)";
        panel.ylabel = "query i (looking)";
        panel.values = xt::cast<double>(xt::view(head_weights, 0, h, xt::all(), xt::all()));   // (n_q, n_k)
        panel.x_tick_labels = key_labels;
        panel.y_tick_labels = query_labels;
        grid.panels.push_back(std::move(panel));
    }
    return grid;
}

plot::LinePlot accuracy_by_heads_plot(const std::vector<std::size_t>& heads, const std::vector<double>& accuracy,
                                      double chance, double even_mix, const std::string& title) {
    plot::LinePlot plot;
    plot.title = title;
    plot.xlabel = "heads (d_h = d / heads)";
    plot.ylabel = "test accuracy";
    plot.y_min = 0.0;
    plot.y_max = 1.05;             // accuracies: the axis stops just above 1
    plot.legend = "below";         // inside, the legend would cover a line anywhere
    plot::Series models{"trained models", {}, accuracy};
    models.markers = true;
    for (std::size_t k = 0; k < heads.size(); ++k) {
        models.x.push_back(static_cast<double>(k));   // evenly spaced, labelled with the head count
        plot.x_tick_labels.push_back(std::to_string(heads[k]));
    }
    const double last = static_cast<double>(heads.size() - 1);
    plot::Series mix{"best with the two partners mixed evenly", {0.0, last}, {even_mix, even_mix}};
    mix.reference = true;
    plot::Series guess{"chance (the most frequent label)", {0.0, last}, {chance, chance}};
    guess.dashed = true;
    guess.colour = 1;
    plot.series = {models, mix, guess};
    return plot;
}

template plot::HeatmapGrid heads_grid(const Array<float>&, const std::vector<std::string>&,
                                      const std::vector<std::string>&, const std::string&, std::size_t);
template plot::HeatmapGrid heads_grid(const Array<double>&, const std::vector<std::string>&,
                                      const std::vector<std::string>&, const std::string&, std::size_t);

}  // namespace attn::ch05
