// Part 4 of chapter 08: naive attention (chapter 03's, which materialises the n x n scores and
// weights) against tiled attention (exercise 08.2 through ch08::tiled_attention), one forward
// pass of one head, float32: time and the measured growth of peak memory against n, each point
// in a child process of its own. The naive one is not run where its memory would pass a budget.
#pragma once
#include "common/plot.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace attn::ch08 {

struct ScalingPoint {
    std::size_t n = 0;
    std::optional<double> naive_ms, naive_mib;   // empty: not run (its memory would pass the budget)
    double tiled_ms = 0, tiled_mib = 0;          // fastest of the repetitions; peak growth of one call
};

// A predicted memory counts as over the budget once prediction_margin times it is: at 91 % of
// the budget or more. The peak measured at one n varies by a few percent between runs, and a
// naive pass predicted a hair under the budget could end a little over it, with the machine's memory.
constexpr double prediction_margin = 1.1;

// Whether the naive pass at n would pass the budget, predicted from its measurement at last_n:
// last_mib x (n / last_n)^2 x prediction_margin > budget_mib.
bool predicted_over_budget(double last_mib, std::size_t last_n, std::size_t n, double budget_mib);

struct ScalingRun {
    std::vector<ScalingPoint> points;             // by increasing n
    // The first n at which the naive pass's memory passes the budget: measured there, or
    // predicted (from its last measured point, times (n / n_last)^2, times prediction_margin)
    // where it was not run.
    std::optional<std::size_t> naive_over_budget_at;
    bool predicted = false;                       // whether that n was predicted rather than measured
};

// Measures both at each length (increasing), d = head size, `repetitions` timed calls per point,
// and hands each point to `measured` as soon as it has it (to print it). Once the naive pass
// passes the budget (measured, or predicted before running it), it is not run again.
// Throws std::runtime_error if a child process fails.
ScalingRun measure_scaling(const std::vector<std::size_t>& lengths, std::size_t d, double budget_mib, int repetitions,
                           const std::function<void(const ScalingPoint&)>& measured);

// log(y) = intercept + slope log(n) by least squares over the points with n at or above the
// geometric middle of the measured lengths, where the leading term dominates. `what` picks
// naive or tiled, time or memory; empty if fewer than two points qualify.
struct Slope {
    double slope = 0, intercept = 0, n_min = 0, n_max = 0;
};
enum class Measure { naive_time, naive_memory, tiled_time, tiled_memory };
std::optional<Slope> fit_slope(const std::vector<ScalingPoint>& points, Measure what);

// Time (or memory) against n on log-log axes, naive and tiled, each with its fitted slope in its
// legend entry and the fitted line dashed; the budget as a grey line on the memory figure.
plot::LinePlot scaling_time_plot(const std::vector<ScalingPoint>& points, std::size_t d);
plot::LinePlot scaling_memory_plot(const std::vector<ScalingPoint>& points, std::size_t d, double budget_mib);

}  // namespace attn::ch08
