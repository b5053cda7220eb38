// Chapter 06's figures (see figures.hpp).
#include "chapters/06_positional_encoding/figures.hpp"

#include <string>

namespace attn::ch06 {

namespace {

// A heatmap of a (positions or dimensions) x (positions or dimensions) matrix, with one tick
// label every `every` rows and columns ("0", "", ..., "8", ...) so that 64 stay readable.
plot::Heatmap sparse_heatmap(const Array<double>& values, const std::string& title, const std::string& xlabel,
                             const std::string& ylabel, const std::string& colorbar_label, std::size_t every) {
    const auto ticks = [every](std::size_t count) {
        std::vector<std::string> labels(count);
        for (std::size_t i = 0; i < count; i += every) labels[i] = std::to_string(i);
        return labels;
    };
    plot::Heatmap map;
    map.title = title;
    map.xlabel = xlabel;
    map.ylabel = ylabel;
    map.values = values;
    map.x_tick_labels = ticks(values.shape(1));
    map.y_tick_labels = ticks(values.shape(0));
    map.colorbar_label = colorbar_label;
    return map;
}

}  // namespace

plot::Heatmap encoding_heatmap(const Array<double>& P, std::size_t tick_every) {
    plot::Heatmap map = sparse_heatmap(
        P, "Sinusoidal positional encoding P (n " + std::to_string(P.shape(0)) + ", d " + std::to_string(P.shape(1)) + ")",
        "dimension k (pair k / 2: fast on the left, slow on the right)", "position i", "P[i, k]", tick_every);
    map.z_min = -1.0;
    map.z_max = 1.0;
    return map;
}

plot::LinePlot encoding_curves(const Array<double>& P, const std::vector<std::size_t>& dimensions) {
    const std::size_t n = P.shape(0);
    plot::LinePlot plot;
    plot.title = "A few columns of P: each pair turns at its own speed";
    plot.xlabel = "position i";
    plot.ylabel = "P[i, k]";
    plot.y_min = -1.1;
    plot.y_max = 1.1;
    for (const std::size_t k : dimensions) {
        plot::Series series;
        series.label = "dim " + std::to_string(k) + ": " + (k % 2 == 0 ? "sin" : "cos") + " of pair " +
                       std::to_string(k / 2);
        for (std::size_t i = 0; i < n; ++i) {
            series.x.push_back(static_cast<double>(i));
            series.y.push_back(P(i, k));
        }
        plot.series.push_back(std::move(series));
    }
    return plot;
}

plot::Heatmap similarity_heatmap(const Array<double>& similarity, std::size_t tick_every) {
    return sparse_heatmap(similarity, "Similarity of the codes, P_i . P_k: it depends on i - k only", "position k",
                          "position i", "P_i . P_k", tick_every);
}

// The chance level, drawn alike in both accuracy figures: dashed, in the colour after the models'.
plot::Series chance_line(double from, double to, double chance, std::size_t models) {
    plot::Series guess{"chance (1 / letters)", {from, to}, {chance, chance}};
    guess.dashed = true;
    guess.colour = static_cast<int>(models);
    return guess;
}

plot::LinePlot accuracy_by_measure_plot(const std::vector<std::string>& measures, const std::vector<ModelAccuracy>& models,
                                        double chance, const std::string& title) {
    plot::LinePlot plot;
    plot.title = title;
    plot.xlabel = "accuracy per token or per whole sequence, on the trained lengths or at unseen positions";
    plot.ylabel = "test accuracy";
    plot.y_min = 0.0;
    plot.y_max = 1.05;             // accuracies: the axis stops just above 1
    plot.legend = "below";         // inside, the legend would cover the markers
    std::vector<double> x;
    for (std::size_t k = 0; k < measures.size(); ++k) {
        x.push_back(static_cast<double>(k));   // evenly spaced, labelled with the measure
        plot.x_tick_labels.push_back(measures[k]);
    }
    // Markers, not lines: nothing lies between two measures. Each model is nudged sideways a
    // little, so that equal values (1 and 1) stay visible side by side.
    for (std::size_t m = 0; m < models.size(); ++m) {
        const double nudge = 0.08 * (static_cast<double>(m) - 0.5 * static_cast<double>(models.size() - 1));
        plot::Series series{models[m].model, x, models[m].accuracy};
        for (double& position : series.x) position += nudge;
        series.points = true;
        plot.series.push_back(series);
    }
    plot.series.push_back(chance_line(x.front() - 0.3, x.back() + 0.3, chance, models.size()));
    return plot;
}

plot::LinePlot accuracy_by_length_plot(const std::vector<std::size_t>& lengths, const std::vector<ModelAccuracy>& models,
                                       std::size_t longest_trained, double chance, const std::string& title) {
    plot::LinePlot plot;
    plot.title = title;
    plot.xlabel = "test sequence length";
    plot.ylabel = "per-token accuracy";
    plot.y_min = 0.0;
    plot.y_max = 1.05;
    plot.legend = "center right";   // below the trained models' lines, above the untrained one's
    std::vector<double> x;
    for (const std::size_t n : lengths) x.push_back(static_cast<double>(n));
    for (const ModelAccuracy& model : models) {
        plot::Series line{model.model, x, model.accuracy};
        line.markers = true;
        plot.series.push_back(line);
    }
    const double edge = static_cast<double>(longest_trained) + 0.5;   // between the last trained length and the first new one
    plot::Series trained{"longest training length", {edge, edge}, {0.0, 1.0}};
    trained.reference = true;
    plot.series.push_back(trained);
    plot.series.push_back(chance_line(x.front(), x.back(), chance, models.size()));
    return plot;
}

}  // namespace attn::ch06
