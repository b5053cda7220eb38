// What the layer-cost measurements say (see layer_cost.hpp): slopes on log-log axes, where
// self-attention overtakes the GRU, and the table and figures chapter 04 shows. Needs only the
// toolkit (tests/04_self_attention/test_layer_cost_report.cpp checks it on made-up costs).
#include "chapters/04_self_attention/layer_cost.hpp"

#include "common/files.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>

namespace attn::ch04 {

namespace {

std::vector<CostPoint> points_of(const std::vector<CostPoint>& points, const std::string& layer) {
    std::vector<CostPoint> mine;
    for (const CostPoint& p : points)
        if (p.layer == layer) mine.push_back(p);
    return mine;
}

std::string fixed(double value, int decimals) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

}  // namespace

const std::vector<std::string>& layer_names() {
    static const std::vector<std::string> names{"self-attention", "GRU", "convolution k3"};
    return names;
}

double theoretical_slope(const std::string& layer) { return layer == "self-attention" ? 2.0 : 1.0; }

LogLogFit fit_log_log(const std::vector<CostPoint>& points, const std::string& layer) {
    const std::vector<CostPoint> mine = points_of(points, layer);
    if (mine.size() < 2) throw std::invalid_argument("fit_log_log: fewer than two lengths for " + layer);
    const double middle = std::sqrt(static_cast<double>(mine.front().n) * static_cast<double>(mine.back().n));
    // slope = cov(log n, log ms) / var(log n) over the points with n >= middle
    double count = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, n_min = INFINITY, n_max = 0;
    for (const CostPoint& p : mine) {
        if (static_cast<double>(p.n) < middle) continue;
        const double x = std::log(static_cast<double>(p.n)), y = std::log(p.ms);
        count += 1, sx += x, sy += y, sxx += x * x, sxy += x * y;
        n_min = std::min(n_min, static_cast<double>(p.n)), n_max = std::max(n_max, static_cast<double>(p.n));
    }
    const double var_x = sxx - sx * sx / count;
    if (count < 2 || var_x <= 0) throw std::invalid_argument("fit_log_log: the upper half holds one length only");
    const double slope = (sxy - sx * sy / count) / var_x;
    return {slope, (sy - slope * sx) / count, n_min, n_max};
}

std::optional<double> fitted_attention_gru_crossover(const std::vector<CostPoint>& points) {
    const LogLogFit attention = fit_log_log(points, "self-attention"), gru = fit_log_log(points, "GRU");
    if (attention.slope <= gru.slope) return std::nullopt;
    return std::exp((gru.intercept - attention.intercept) / (attention.slope - gru.slope));
}

std::optional<double> attention_gru_crossover(const std::vector<CostPoint>& points) {
    const std::vector<CostPoint> attention = points_of(points, "self-attention"), gru = points_of(points, "GRU");
    // log(attention / GRU) at each length; it crosses 0 where the two costs are equal.
    for (std::size_t i = 0; i < attention.size() && i < gru.size(); ++i) {
        const double gap = std::log(attention[i].ms / gru[i].ms);
        if (gap <= 0) continue;
        if (i == 0) return static_cast<double>(attention[0].n);   // already dearer at the shortest length
        const double previous = std::log(attention[i - 1].ms / gru[i - 1].ms);
        const double a = std::log(static_cast<double>(attention[i - 1].n)), b = std::log(static_cast<double>(attention[i].n));
        return std::exp(a + (b - a) * previous / (previous - gap));
    }
    return std::nullopt;
}

std::string cost_table(const std::vector<CostPoint>& points) {
    std::map<std::size_t, std::map<std::string, CostPoint>> by_length;
    for (const CostPoint& p : points) by_length[p.n][p.layer] = p;
    std::string table = "n";
    for (const std::string& layer : layer_names()) table += "\t" + layer + " ms\t" + layer + " MiB";
    table += "\n";
    for (const auto& [n, row] : by_length) {
        table += std::to_string(n);
        for (const std::string& layer : layer_names()) {
            const auto found = row.find(layer);
            table += found == row.end() ? "\t\t" : "\t" + fixed(found->second.ms, 4) + "\t" + fixed(found->second.peak_mib, 2);
        }
        table += "\n";
    }
    return table;
}

namespace {

// One series per layer of `value` (ms or peak_mib) against n, on log-log axes.
plot::LinePlot log_log_plot(const std::vector<CostPoint>& points, const std::string& what, const std::string& unit,
                            double CostPoint::*value) {
    plot::LinePlot plot;
    plot.title = what + " of one forward + backward pass, d = " + std::to_string(points.empty() ? 0 : points.front().d);
    plot.xlabel = "sequence length n";
    plot.ylabel = unit;
    plot.log_x = plot.log_y = true;
    plot.legend = "top left";
    for (const std::string& layer : layer_names()) {
        plot::Series series{layer, {}, {}};
        series.markers = true;
        for (const CostPoint& p : points_of(points, layer)) {
            if (p.*value <= 0) continue;   // e.g. a pass that fitted into memory the process already held
            series.x.push_back(static_cast<double>(p.n));
            series.y.push_back(p.*value);
        }
        plot.series.push_back(series);
    }
    return plot;
}

}  // namespace

plot::LinePlot time_plot(const std::vector<CostPoint>& points) {
    plot::LinePlot plot = log_log_plot(points, "Time", "milliseconds", &CostPoint::ms);
    plot.title += " (points: measured, dashed: fitted)";
    for (std::size_t k = 0; k < layer_names().size(); ++k) {
        const LogLogFit fit = fit_log_log(points, layer_names()[k]);
        plot.series[k].label += ": slope " + fixed(fit.slope, 2) + " (theory " +
                                fixed(theoretical_slope(layer_names()[k]), 0) + ")";
        plot.series[k].points = true;   // the measurements as points, so the fitted line through them shows
        plot.series[k].markers = false;
        plot::Series line{"", {}, {}};   // ms = e^intercept n^slope: a straight line on these axes
        for (const double n : {fit.n_min, fit.n_max}) {
            line.x.push_back(n);
            line.y.push_back(std::exp(fit.intercept) * std::pow(n, fit.slope));
        }
        line.dashed = true;
        line.colour = static_cast<int>(k);
        plot.series.push_back(line);
    }
    return plot;
}

plot::LinePlot memory_plot(const std::vector<CostPoint>& points) {
    return log_log_plot(points, "Peak memory", "MiB", &CostPoint::peak_mib);
}

LayerCostFiles save_layer_costs(const std::vector<CostPoint>& points, const std::filesystem::path& dir) {
    ensure_directory(dir);
    LayerCostFiles files;
    files.table = dir / "sequence_layer_cost.tsv";
    write_text_atomically(files.table, cost_table(points));
    files.time = plot::save(time_plot(points), dir, "sequence_layer_time");
    files.memory = plot::save(memory_plot(points), dir, "sequence_layer_memory");
    return files;
}

}  // namespace attn::ch04
