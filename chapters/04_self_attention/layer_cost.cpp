// Measuring the three layers (see layer_cost.hpp). Each (layer, n) point runs in a forked child
// that returns its free heap to the system first, so every measurement starts from the same
// state whatever ran before it, and the kernel's high-water mark of resident memory (reset
// through /proc/self/clear_refs) is that one forward + backward pass's peak.
#include "chapters/04_self_attention/layer_cost.hpp"

#include "chapters/01_encoder_decoder/gru_cell.hpp"
#include "chapters/03_queries_keys_values/project_and_attend.hpp"
#include "common/autodiff/ops.hpp"
#include "common/child_process.hpp"
#include "common/nn/conv1d.hpp"


#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <stdexcept>

namespace attn::ch04 {

namespace {

struct Cost {
    double ms = 0, peak_mib = 0;
};

// The memory of the first call, then the fastest time per call over `repetitions` batches of
// calls, each batch lasting at least ~2 ms so that short calls are not lost in timer noise. The
// fastest, not the median: other programs only ever slow a batch down, so the minimum is the
// one that stays put on a busy machine.
Cost measure_step(const std::function<void()>& step, int repetitions) {
    using clock = std::chrono::steady_clock;
    // peak_growth_mib hands free heap back to the system first, so that the pass's allocations
    // show up as new resident pages even when the caller kept a large freed heap (after training).
    Cost cost;
    cost.peak_mib = peak_growth_mib(step);
    const auto start = clock::now();
    step();
    const double one_call_ms = std::chrono::duration<double, std::milli>(clock::now() - start).count();
    const int calls = static_cast<int>(std::clamp(std::ceil(2.0 / std::max(one_call_ms, 1e-3)), 1.0, 1000.0));
    std::vector<double> samples;
    for (int r = 0; r < repetitions; ++r) {
        const auto batch_start = clock::now();
        for (int c = 0; c < calls; ++c) step();
        samples.push_back(std::chrono::duration<double, std::milli>(clock::now() - batch_start).count() / calls);
    }
    cost.ms = *std::min_element(samples.begin(), samples.end());
    return cost;
}

Var<float> random_input(std::size_t n, std::size_t d, Rng& rng) {   // X: (1, n, d), a leaf that wants dX
    Array<float> values = Array<float>::from_shape({1, n, d});
    for (float& v : values) v = static_cast<float>(rng.normal());
    return parameter<float>(std::move(values));
}

// One forward + backward of layer `layer` on a fresh random X (1, n, d); loss = sum of the outputs.
Cost measure_layer(const std::string& layer, std::size_t n, std::size_t d, int repetitions);

// What any first call sets up once (OpenBLAS's buffers, for one), done at n = 2 so that it
// counts in neither the time nor the memory of the measured length.
Cost measure_layer_after_warmup(const std::string& layer, std::size_t n, std::size_t d, int repetitions) {
    measure_layer(layer, 2, d, 1);
    return measure_layer(layer, n, d, repetitions);
}

Cost measure_layer(const std::string& layer, std::size_t n, std::size_t d, int repetitions) {
    Rng rng(n);
    const Var<float> X = random_input(n, d, rng);
    if (layer == "self-attention") {
        const ch03::AttentionLayer<float> attention({d, d, d, d, d}, rng);
        return measure_step([&] {
            backward(sum(ch03::project_and_attend(attention, X, X, X).output));   // softmax(Q K^T / sqrt(d)) V
            attention.zero_grad();
            X.zero_grad();
        }, repetitions);
    }
    if (layer == "GRU") {
        const ch01::GruLayer<float> gru(d, d, rng);
        return measure_step([&] {
            const Var<float> x_gates = gru.project_inputs(X);                 // (1, n, 3d), all steps at once
            Var<float> h = constant<float>(xt::zeros<float>({std::size_t(1), d}));
            std::vector<Var<float>> states;
            for (std::size_t t = 0; t < n; ++t) {                            // n steps, one after the other
                h = ch01::gru_cell(select(x_gates, 1, t), h, gru);
                states.push_back(h);
            }
            backward(sum(stack(states, 1)));
            gru.zero_grad();
            X.zero_grad();
        }, repetitions);
    }
    if (layer != "convolution k3") throw std::invalid_argument("measure_layer_costs: no layer called " + layer);
    const Conv1d<float> conv(d, d, 3, rng);
    return measure_step([&] {
        backward(sum(conv(X)));
        conv.zero_grad();
        X.zero_grad();
    }, repetitions);
}

}  // namespace

std::vector<CostPoint> measure_layer_costs(const std::vector<std::size_t>& lengths, std::size_t d, int repetitions) {
    if (lengths.empty() || d == 0 || repetitions < 1)
        throw std::invalid_argument("measure_layer_costs: expected some lengths, d > 0 and repetitions >= 1");
    // One tiny pass of each layer here, in this process: a learner's exercise that is still a
    // stub stops the run with its own message instead of failing inside a child.
    for (const std::string& layer : layer_names()) measure_layer(layer, 2, d, 1);
    std::vector<std::size_t> sorted = lengths;
    std::sort(sorted.begin(), sorted.end());
    std::vector<CostPoint> points;
    for (const std::size_t n : sorted)
        for (const std::string& layer : layer_names()) {
            const Cost cost = in_child_process<Cost>(
                "measure_layer_costs", [&] { return measure_layer_after_warmup(layer, n, d, repetitions); });
            points.push_back({layer, n, d, cost.ms, cost.peak_mib});
        }
    return points;
}

}  // namespace attn::ch04
