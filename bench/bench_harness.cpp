// The benchmark harness (see bench_harness.hpp).
#include "bench/bench_harness.hpp"

#include "bench_build_info.hpp"
#include "common/autodiff/blas.hpp"
#include "common/summary.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace attn::bench {

double median_ms_per_call(const std::function<void()>& body, int calls, int repeats, int warmup) {
    for (int i = 0; i < warmup; ++i) body();
    std::vector<double> samples;
    for (int r = 0; r < repeats; ++r) {
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < calls; ++i) body();
        const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
        samples.push_back(took.count() / calls);
    }
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
}

namespace {
std::string extra_fields(const Measurement& m) {
    std::string text;
    for (const auto& [key, value] : m.extra) text += ", " + json_string(key) + ": " + json_number(value);
    return text;
}
}  // namespace

double peak_resident_mib() {
    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;   // Linux reports KiB
}

double process_cpu_seconds() {
    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

Measurement time_training_step(const std::string& config, const std::function<void()>& step, int steps,
                               std::size_t parameters, double baseline_mib, int repeats, int warmup) {
    const double cpu_start = process_cpu_seconds();
    const double ms = median_ms_per_call(step, steps, repeats, warmup);
    const double cpu_ms_per_step = 1000.0 * (process_cpu_seconds() - cpu_start) / (warmup + repeats * steps);
    return {config, 1000.0 / ms, "steps_per_s",
            {{"cpu_ms_per_step", cpu_ms_per_step},
             {"parameters", static_cast<double>(parameters)},
             {"peak_mib", peak_resident_mib()},
             {"baseline_mib", baseline_mib}}};
}

std::string json_line(const Measurement& m) {
    return "{\"config\": " + json_string(m.config) + ", \"impl\": \"course\", \"threads\": " +
           std::to_string(blas::threads()) + ", " + json_string(m.unit) + ": " + json_number(m.value) +
           extra_fields(m) + ", \"env\": {\"compiler\": " + json_string(BENCH_COMPILER) + ", \"build\": " + json_string(BENCH_BUILD_TYPE) +
           ", \"flags\": " + json_string(BENCH_FLAGS) + ", \"openblas_core\": " + json_string(blas::core_name()) +
           ", \"openblas_threads\": " + std::to_string(blas::threads()) + "}}";
}

}  // namespace attn::bench
