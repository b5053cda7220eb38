// Chapter 07's figures (see figures.hpp).
#include "chapters/07_transformer/figures.hpp"

#include "chapters/05_multi_head_attention/figures.hpp"

namespace attn::ch07 {

plot::LinePlot learning_rate_schedule(const ch01::TrainConfig& config, const std::string& title) {
    plot::LinePlot figure;
    figure.title = title;
    figure.xlabel = "training step";
    figure.ylabel = "learning rate";
    figure.y_min = 0.0;
    figure.legend = "top right";   // the rate peaks early, on the left
    plot::Series rate{"Adam's learning rate", {}, {}, false};
    for (int step = 1; step <= config.steps; ++step) {
        rate.x.push_back(step);
        rate.y.push_back(ch01::learning_rate_at(config, step));
    }
    figure.series.push_back(std::move(rate));
    return figure;
}

plot::HeatmapGrid layers_and_heads(const std::vector<Var<float>>& weights, const std::vector<std::string>& query_labels,
                                   const std::vector<std::string>& key_labels, const std::string& title) {
    plot::HeatmapGrid grid;
    for (std::size_t layer = 0; layer < weights.size(); ++layer) {
        // Chapter 05's grid of one layer's heads, its panels retitled with the layer.
        plot::HeatmapGrid heads = ch05::heads_grid(weights[layer].value(), query_labels, key_labels, title, 0);
        if (layer == 0) grid = heads;
        grid.columns = heads.panels.size();
        for (std::size_t h = 0; h < heads.panels.size(); ++h) {
            plot::Heatmap panel = heads.panels[h];
            panel.title = "layer " + std::to_string(layer + 1) + ", head " + std::to_string(h + 1);
            if (layer == 0) grid.panels[h] = std::move(panel);
            else grid.panels.push_back(std::move(panel));
        }
    }
    return grid;
}

}  // namespace attn::ch07
