// Why the GRU's measured time grows faster than n (chapter 04, part 3): one forward +
// backward pass of the GRU layer that chapter 04 times (layer_cost.cpp), split into the
// forward and the backward time per step, next to the page faults per step and the memory
// the autodiff tape holds (peak growth during the pass). The work per step is the same at
// every n; if it were all that mattered, every time per step would be flat in n.
// Usage: bench_gru_steps   (d = 64, batch 1, float32, n = 64 ... 8192, the fastest of 9
// passes: the one least disturbed by whatever else the machine runs)
#include "chapters/01_encoder_decoder/gru_cell.hpp"
#include "common/autodiff/ops.hpp"
#include "common/runtime.hpp"

#include <malloc.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

using namespace attn;

namespace {

long minor_faults() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

double status_mib(const std::string& key) {   // "VmRSS" or "VmHWM" of /proc/self/status, in MiB
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind(key + ":", 0) == 0) return std::stod(line.substr(key.size() + 1)) / 1024.0;
    return 0;
}

}  // namespace

int main() {
    tune_runtime();
    const std::size_t d = 64;
    const int repetitions = 9;
    Rng rng(1);
    const ch01::GruLayer<float> gru(d, d, rng);
    std::printf("microseconds per step of one forward + backward pass of a GRU layer, d = %zu, float32, batch 1\n", d);
    std::printf("%6s %10s %10s %10s %13s %10s\n", "n", "total", "forward", "backward", "faults/step", "tape MiB");
    for (std::size_t n = 64; n <= 8192; n *= 2) {
        Array<float> values = rng.normal_matrix<float>(n, d);
        values.reshape({1, n, d});
        const Var<float> X = parameter<float>(std::move(values));
        using clock = std::chrono::steady_clock;
        std::vector<double> forward_us, backward_us;
        long faults = 0;
        double tape_mib = 0;
        for (int r = 0; r <= repetitions; ++r) {   // the first pass only warms up, and measures the tape
            if (r == 0) {   // freed memory back to the system, so the tape shows up as new resident pages
                malloc_trim(0);
                std::ofstream("/proc/self/clear_refs") << "5";   // VmHWM := VmRSS
            }
            const double resident_before = status_mib("VmRSS");
            const long faults_before = minor_faults();
            const auto start = clock::now();
            const Var<float> x_gates = gru.project_inputs(X);
            Var<float> h = constant<float>(xt::zeros<float>({std::size_t(1), d}));
            std::vector<Var<float>> states;
            for (std::size_t t = 0; t < n; ++t) {
                h = ch01::gru_cell(select(x_gates, 1, t), h, gru);
                states.push_back(h);
            }
            const Var<float> loss = sum(stack(states, 1));
            const auto middle = clock::now();
            backward(loss);
            const auto end = clock::now();
            if (r == 0) tape_mib = status_mib("VmHWM") - resident_before;
            gru.zero_grad();
            X.zero_grad();
            if (r == 0) continue;
            faults += minor_faults() - faults_before;
            forward_us.push_back(std::chrono::duration<double, std::micro>(middle - start).count() / n);
            backward_us.push_back(std::chrono::duration<double, std::micro>(end - middle).count() / n);
        }
        const double f = *std::min_element(forward_us.begin(), forward_us.end());
        const double b = *std::min_element(backward_us.begin(), backward_us.end());
        std::printf("%6zu %10.1f %10.1f %10.1f %13.2f %10.1f\n", n, f + b, f, b,
                    static_cast<double>(faults) / (repetitions * static_cast<double>(n)), tape_mib);
    }
    return 0;
}
