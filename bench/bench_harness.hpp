// The benchmark harness: times a function (median of repeats) and prints one JSON object per
// measurement with the environment, so runs on different machines can be compared.
#pragma once
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace attn::bench {

struct Measurement {
    std::string config;     // e.g. "matmul 64x160 * 160x384"
    double value;           // the figure
    std::string unit;       // "ms_per_call" or "steps_per_s"
    std::vector<std::pair<std::string, double>> extra = {};   // further figures, e.g. {"gflops", 12.5}
};

// Median milliseconds per call of `body`, after `warmup` calls, over `repeats` batches of
// `calls` calls each.
double median_ms_per_call(const std::function<void()>& body, int calls, int repeats = 7, int warmup = 3);

// {"config": ..., "impl": "course", "threads": N, "ms_per_call": x, <extra>..., "env": {...}}
std::string json_line(const Measurement& m);

// The process's peak resident memory so far, in MiB (getrusage's ru_maxrss).
double peak_resident_mib();

// The CPU time the process has used so far (user + system, all threads), in seconds. On a
// busy machine it measures a one-thread step far more steadily than the wall clock does.
double process_cpu_seconds();

// A training benchmark's measurement: `warmup` steps, then the median steps/s over `repeats`
// runs of `steps` steps, with the CPU time per step over all of them, the model's number of
// weights and the peak resident memory (baseline_mib: the process before the model existed),
// as bench/training_step_torch.py reports the PyTorch side.
Measurement time_training_step(const std::string& config, const std::function<void()>& step, int steps,
                               std::size_t parameters, double baseline_mib, int repeats = 3, int warmup = 5);


struct TimeAndMemory {
    double ms = 0, peak_mib_growth = 0;
};
// (Measured in a forked child by in_child_process<TimeAndMemory>, common/child_process.hpp:
// each measurement starts from the same state, whatever ran before it.)


}  // namespace attn::bench
