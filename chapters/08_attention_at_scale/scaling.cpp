// Naive against tiled attention, time and memory against n (scaling.hpp).
#include "chapters/08_attention_at_scale/scaling.hpp"

#include "chapters/03_queries_keys_values/scaled_dot_product_attention.hpp"
#include "chapters/08_attention_at_scale/tiled_attention.hpp"
#include "common/child_process.hpp"
#include "common/progress.hpp"
#include "common/random.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

namespace attn::ch08 {

namespace {

using Attention = std::function<Var<float>(const Var<float>&, const Var<float>&, const Var<float>&)>;

struct Cost {
    double ms, mib;
};

Var<float> random_input(std::size_t n, std::size_t d, Rng& rng) {   // (1, n, d), N(0, 1)
    Array<float> a = Array<float>::from_shape({1, n, d});
    for (float& v : a) v = static_cast<float>(rng.normal());
    return constant<float>(std::move(a));
}

// One forward pass in a child process: the growth of peak memory during the first call (after a
// call at n = 2 that sets up what any first call sets up once, such as OpenBLAS's buffers), then
// the fastest of `repetitions` calls. No gradient: the tape would keep what a forward pass frees.
Cost measure(const Attention& attention, std::size_t n, std::size_t d, int repetitions) {
    return in_child_process<Cost>("ch08 scaling", [&] {
        const NoGradGuard no_grad;
        Rng rng(n);
        const Var<float> tiny = random_input(2, d, rng);
        attention(tiny, tiny, tiny);
        const Var<float> Q = random_input(n, d, rng), K = random_input(n, d, rng), V = random_input(n, d, rng);
        Cost cost{std::numeric_limits<double>::infinity(), peak_growth_mib([&] { attention(Q, K, V); })};
        for (int r = 0; r < repetitions; ++r) {
            const Stopwatch clock;
            attention(Q, K, V);
            cost.ms = std::min(cost.ms, clock.seconds() * 1e3);
        }
        return cost;
    });
}

double value_of(const ScalingPoint& p, Measure what) {
    switch (what) {
    case Measure::naive_time: return p.naive_ms.value_or(0);
    case Measure::naive_memory: return p.naive_mib.value_or(0);
    case Measure::tiled_time: return p.tiled_ms;
    case Measure::tiled_memory: return p.tiled_mib;
    }
    return 0;
}

}  // namespace

bool predicted_over_budget(double last_mib, std::size_t last_n, std::size_t n, double budget_mib) {
    // The naive pass's memory grows as n^2; the margin makes "about the budget" count as over it.
    const double ratio = static_cast<double>(n) / static_cast<double>(last_n);
    return last_mib * ratio * ratio * prediction_margin > budget_mib;
}

ScalingRun measure_scaling(const std::vector<std::size_t>& lengths, std::size_t d, double budget_mib, int repetitions,
                           const std::function<void(const ScalingPoint&)>& measured) {
    const Attention naive = [](const Var<float>& Q, const Var<float>& K, const Var<float>& V) {
        return ch03::scaled_dot_product_attention(Q, K, V).output;   // the weights are made, and dropped
    };
    const Attention tiled = [](const Var<float>& Q, const Var<float>& K, const Var<float>& V) {
        return tiled_attention(Q, K, V);
    };
    ScalingRun run;
    std::optional<ScalingPoint> last_naive;
    for (const std::size_t n : lengths) {
        ScalingPoint point;
        point.n = n;
        if (!run.naive_over_budget_at) {
            if (last_naive && predicted_over_budget(*last_naive->naive_mib, last_naive->n, n, budget_mib)) {
                run.naive_over_budget_at = n, run.predicted = true;
            } else {
                const Cost cost = measure(naive, n, d, repetitions);
                point.naive_ms = cost.ms, point.naive_mib = cost.mib;
                if (cost.mib > budget_mib) run.naive_over_budget_at = n;
                last_naive = point;
            }
        }
        const Cost cost = measure(tiled, n, d, repetitions);
        point.tiled_ms = cost.ms, point.tiled_mib = cost.mib;
        run.points.push_back(point);
        measured(point);
    }
    return run;
}

std::optional<Slope> fit_slope(const std::vector<ScalingPoint>& points, Measure what) {
    if (points.size() < 2) return std::nullopt;
    const double middle = std::sqrt(static_cast<double>(points.front().n) * static_cast<double>(points.back().n));
    // slope = cov(log n, log y) / var(log n) over the points with n >= middle and a measurement
    double count = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, n_min = INFINITY, n_max = 0;
    for (const ScalingPoint& p : points) {
        const double y = value_of(p, what);
        if (static_cast<double>(p.n) < middle || !(y > 0)) continue;
        const double x = std::log(static_cast<double>(p.n)), log_y = std::log(y);
        count += 1, sx += x, sy += log_y, sxx += x * x, sxy += x * log_y;
        n_min = std::min(n_min, static_cast<double>(p.n)), n_max = std::max(n_max, static_cast<double>(p.n));
    }
    const double var_x = count > 0 ? sxx - sx * sx / count : 0;
    if (count < 2 || var_x <= 0) return std::nullopt;
    const double slope = (sxy - sx * sy / count) / var_x;
    return Slope{slope, (sy - slope * sx) / count, n_min, n_max};
}

namespace {

std::string two_decimals(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", value);
    return text;
}

// Naive and tiled of one measure against n, each with its fitted line.
plot::LinePlot log_log_plot(const std::vector<ScalingPoint>& points, Measure naive, Measure tiled, const std::string& title,
                            const std::string& unit) {
    plot::LinePlot plot;
    plot.title = title;
    plot.xlabel = "sequence length n (queries = keys)";
    plot.ylabel = unit;
    plot.log_x = plot.log_y = true;
    plot.legend = "top left";
    const std::pair<Measure, std::string> kinds[] = {{naive, "naive (chapter 03)"}, {tiled, "tiled (08.2)"}};
    std::vector<plot::Series> lines;
    for (std::size_t k = 0; k < 2; ++k) {
        plot::Series series{kinds[k].second, {}, {}};
        series.points = true;
        for (const ScalingPoint& p : points)
            if (value_of(p, kinds[k].first) > 0) {
                series.x.push_back(static_cast<double>(p.n));
                series.y.push_back(value_of(p, kinds[k].first));
            }
        if (const std::optional<Slope> fit = fit_slope(points, kinds[k].first)) {
            series.label += ", slope " + two_decimals(fit->slope);
            plot::Series line{"", {}, {}};   // y = e^intercept n^slope: straight on these axes
            for (const double n : {fit->n_min, fit->n_max}) {
                line.x.push_back(n);
                line.y.push_back(std::exp(fit->intercept) * std::pow(n, fit->slope));
            }
            line.dashed = true;
            line.colour = static_cast<int>(k);
            lines.push_back(line);
        }
        plot.series.push_back(series);
    }
    plot.series.insert(plot.series.end(), lines.begin(), lines.end());
    return plot;
}

}  // namespace

plot::LinePlot scaling_time_plot(const std::vector<ScalingPoint>& points, std::size_t d) {
    return log_log_plot(points, Measure::naive_time, Measure::tiled_time,
                        "Attention forward, one head, d = " + std::to_string(d) + ", float32: time (dashed: fitted)",
                        "milliseconds (fastest call)");
}

plot::LinePlot scaling_memory_plot(const std::vector<ScalingPoint>& points, std::size_t d, double budget_mib) {
    plot::LinePlot plot = log_log_plot(points, Measure::naive_memory, Measure::tiled_memory,
                                       "Attention forward, one head, d = " + std::to_string(d) +
                                           ", float32: peak memory (dashed: fitted)",
                                       "growth of peak resident memory (MiB)");
    plot.legend = "top left";   // the budget runs along the top, the lines rise to the right
    plot::Series budget{"memory budget " + two_decimals(budget_mib / 1024) + " GiB", {}, {}};
    budget.reference = true;
    budget.x = {static_cast<double>(points.front().n), static_cast<double>(points.back().n)};
    budget.y = {budget_mib, budget_mib};
    plot.series.push_back(budget);
    return plot;
}

}  // namespace attn::ch08
