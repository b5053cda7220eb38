// The measured cost of one self-attention layer, one GRU layer and one 1-D convolution
// (kernel 3) over a sequence of n vectors of size d: time and peak memory of one forward and
// backward pass (loss = the sum of the outputs), float32, batch 1. Chapter 04 compares the
// measurements with the per-layer costs O(n^2 d), O(n d^2) and O(k n d^2); bench_sequence_layers
// prints them beside PyTorch's (bench/sequence_layers_torch.py).
#pragma once
#include "common/plot.hpp"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace attn::ch04 {

struct CostPoint {
    std::string layer;       // one of layer_names()
    std::size_t n = 0;       // sequence length
    std::size_t d = 0;       // vector size
    double ms = 0;           // fastest milliseconds of one forward + backward (of the repetitions)
    double peak_mib = 0;     // growth of peak resident memory during one forward + backward
};

// "self-attention", "GRU", "convolution k3", in the order they are measured and plotted.
const std::vector<std::string>& layer_names();
// The exponent of n in each layer's cost at fixed d: 2 (n^2 d), 1 (n d^2, sequential), 1 (k n d^2).
double theoretical_slope(const std::string& layer);

// Every layer at every length (increasing), d_k = d_v = hidden = channels = d. Each point runs in
// a child process of its own, so that memory freed by one measurement cannot hide the peak of
// the next; `repetitions` timed batches give the fastest (3 is enough for a quick look, 7 for the
// benchmark). Throws std::runtime_error if a child cannot be started or fails.
std::vector<CostPoint> measure_layer_costs(const std::vector<std::size_t>& lengths, std::size_t d, int repetitions);

// log(ms) = intercept + slope log(n), fitted by least squares over the upper half of the lengths
// (n at or above the geometric middle of the range), where the leading term of the cost dominates.
struct LogLogFit {
    double slope = 0, intercept = 0;
    double n_min = 0, n_max = 0;   // the lengths it was fitted over
};
LogLogFit fit_log_log(const std::vector<CostPoint>& points, const std::string& layer);

// The length where self-attention starts to cost more time than the GRU, interpolated on
// log-log axes between the two measured lengths around the crossing; empty if it does not
// cross inside the measured range.
std::optional<double> attention_gru_crossover(const std::vector<CostPoint>& points);
// Where the two fitted lines cross (an extrapolation when the measurements do not cross);
// empty if self-attention's line is not the steeper one.
std::optional<double> fitted_attention_gru_crossover(const std::vector<CostPoint>& points);

// One row per length: n, then the milliseconds and MiB of each layer, tab-separated with a header.
std::string cost_table(const std::vector<CostPoint>& points);
// Time against n on log-log axes, each layer's fitted and theoretical slope in its legend entry;
// the measurements as points and, after them, each layer's fitted line (dashed, in its colour)
// over the lengths it was fitted on.
plot::LinePlot time_plot(const std::vector<CostPoint>& points);
// Peak memory growth against n on log-log axes.
plot::LinePlot memory_plot(const std::vector<CostPoint>& points);

// Writes DIR/sequence_layer_cost.tsv (cost_table) and the two figures, DIR/sequence_layer_time and
// DIR/sequence_layer_memory (.gp, .dat, and .svg and .png when gnuplot is installed).
struct LayerCostFiles {
    std::filesystem::path table;
    plot::Files time, memory;
};
LayerCostFiles save_layer_costs(const std::vector<CostPoint>& points, const std::filesystem::path& dir);

}  // namespace attn::ch04
