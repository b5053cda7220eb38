// Scaled dot-product attention, one head: softmax(Q K^T / sqrt(d)) V for batch 1, d = 64,
// float32, n queries and n keys, n = 256 ... 32,768 (doubling). Two implementations, each
// forward only and forward + backward:
//   "attention fwd 1 head d64 nN"                chapter 03's function (the reference solution),
//   "attention fwd+bwd 1 head d64 nN"            which holds the n x n scores and weights;
//   "attention fwd streaming 1 head d64 nN"      chapter 08's tiled_attention (exercises 08.1-08.3:
//   "attention fwd+bwd streaming 1 head d64 nN"  tiles and an online softmax forward, the tiles
//                                                recomputed backward, memory O(n d)). (The name
//                                                "streaming" is kept from when the op was the
//                                                toolkit's streaming_attention.)
// fwd: no gradient, no tape. fwd+bwd: Q, K and V are parameters, and backward starts from the
// output with a fixed random output gradient dO (the gradient of sum(O * dO)) and ends with the
// gradients of Q, K and V.
// Against bench/attention_torch.py. For each point: milliseconds per call, GFLOP/s of the
// products the pass needs (4 n^2 d flops forward, 12 n^2 d forward + backward), and the growth
// of peak resident memory during one call. Each point runs in a child process of its own, so no
// earlier allocation hides a later one.
//
// The memory budget: BENCH_ATTENTION_BUDGET_GIB (default 6), and never more than 80 % of the
// memory available when the point starts. A point whose memory, predicted from the last point
// measured of the same implementation and pass as growing like n^2 (chapter 08's rule,
// scaling.hpp), would pass the budget is not run: its JSON line says "skipped" and what it would
// need. (The tiled op's memory grows like n, so for it the prediction is far too high, and
// harmless.)
//
// `bench_attention [chapter03|streaming] [fwd|fwd+bwd]` runs part of it (to profile one:
// `perf record build/bin/bench_attention streaming fwd+bwd`).
#include "bench/bench_harness.hpp"
#include "chapters/03_queries_keys_values/scaled_dot_product_attention.hpp"
#include "chapters/08_attention_at_scale/scaling.hpp"
#include "chapters/08_attention_at_scale/tiled_attention.hpp"
#include "common/autodiff/blas.hpp"
#include "common/autodiff/ops.hpp"
#include "common/child_process.hpp"
#include "common/memory.hpp"
#include "common/random.hpp"
#include "common/runtime.hpp"
#include "common/summary.hpp"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

using namespace attn;

namespace {

constexpr std::size_t d = 64;
constexpr double mib = 1024.0 * 1024.0;
constexpr double default_budget_gib = 6;
constexpr double largest_share_of_available = 0.8;
const std::vector<std::size_t> lengths = {256, 512, 1024, 2048, 4096, 8192, 16384, 32768};

using Attention = std::function<Var<float>(const Var<float>&, const Var<float>&, const Var<float>&)>;
enum class Pass { forward, forward_backward };

struct Series {
    std::string config;   // without the length
    Attention attention;
    Pass pass;
};

Array<float> random_array(std::size_t n, Rng& rng) {   // (1, n, d), N(0, 1)
    Array<float> a = Array<float>::from_shape({1, n, d});
    for (float& v : a) v = static_cast<float>(rng.normal());
    return a;
}

// The inputs of one point, and the call the benchmark times: forward alone with no tape, or
// forward and backward down to the gradients of Q, K and V (forgotten after each call, as a
// training step's zero_grad forgets them).
struct Inputs {
    Var<float> Q, K, V;
    Array<float> dO;   // the output's gradient (fwd+bwd only)
};

Inputs random_inputs(std::size_t n, Pass pass, Rng& rng) {
    const auto input = [&] {
        return pass == Pass::forward ? constant<float>(random_array(n, rng)) : parameter<float>(random_array(n, rng));
    };
    Inputs in{input(), input(), input(), {}};
    if (pass == Pass::forward_backward) in.dO = random_array(n, rng);
    return in;
}

void one_call(const Attention& attention, Pass pass, const Inputs& in) {
    if (pass == Pass::forward) {
        const NoGradGuard no_grad;
        attention(in.Q, in.K, in.V);
        return;
    }
    backward(attention(in.Q, in.K, in.V), in.dO);
    in.Q.zero_grad();
    in.K.zero_grad();
    in.V.zero_grad();
}

// Few timed calls where one call takes long (half a minute for the tiled forward + backward at
// n = 32,768), so that a round of this benchmark stays within a few minutes.
struct Schedule {
    int calls, repeats, warmup;
};
Schedule schedule_for(std::size_t n) {
    if (n <= 512) return {20, 5, 1};
    if (n <= 2048) return {5, 5, 1};
    if (n <= 4096) return {2, 5, 1};
    // The call that measured the memory was the warm-up. Above 8192 one timed call: bench/run's
    // rounds give the median.
    return {1, n <= 8192 ? 3 : 1, 0};
}

// In a child process: the memory of the first call (after a call at n = 2 that sets up what any
// first call sets up once, such as OpenBLAS's buffers), then the median time per call.
bench::TimeAndMemory measure(const Series& series, std::size_t n) {
    Rng rng(n);
    one_call(series.attention, series.pass, random_inputs(2, series.pass, rng));
    const Inputs in = random_inputs(n, series.pass, rng);
    const auto call = [&] { one_call(series.attention, series.pass, in); };
    bench::TimeAndMemory result;
    result.peak_mib_growth = peak_growth_mib(call);
    const Schedule s = schedule_for(n);
    result.ms = bench::median_ms_per_call(call, s.calls, s.repeats, s.warmup);
    return result;
}

double flops(std::size_t n, Pass pass) {   // the products: Q K^T and P V, and backward four more
    const double forward = 4.0 * static_cast<double>(n * n * d);
    return pass == Pass::forward ? forward : 3.0 * forward;
}

void report(const Series& series, std::size_t n, const bench::TimeAndMemory& m) {
    const double gflops = flops(n, series.pass) / (m.ms * 1e6);
    std::cout << bench::json_line({series.config + std::to_string(n), m.ms, "ms_per_call",
                                   {{"gflops", gflops}, {"peak_mib_growth", m.peak_mib_growth}}})
              << std::endl;
}

void report_skipped(const Series& series, std::size_t n, double predicted_mib, double budget_mib) {
    std::cout << "{\"config\": " << json_string(series.config + std::to_string(n))
              << ", \"impl\": \"course\", \"threads\": " << blas::threads()
              << ", \"skipped\": \"over the memory budget\", \"predicted_mib\": " << json_number(predicted_mib)
              << ", \"budget_mib\": " << json_number(budget_mib) << "}" << std::endl;
}

// BENCH_ATTENTION_BUDGET_GIB in MiB, or the default; empty (after a one-line message) when it is
// not a positive number.
std::optional<double> requested_budget_mib() {
    const char* text = std::getenv("BENCH_ATTENTION_BUDGET_GIB");
    if (text == nullptr || *text == '\0') return default_budget_gib * 1024.0;
    char* end = nullptr;
    const double gib = std::strtod(text, &end);
    if (*end != '\0' || !(gib > 0)) {
        std::cerr << "bench_attention: BENCH_ATTENTION_BUDGET_GIB must be a positive number of GiB, got '" << text
                  << "'\n";
        return std::nullopt;
    }
    return gib * 1024.0;
}

// The budget for the next point: the one asked for, but never more than 80 % of the memory
// available now (the machine may be shared, and the others' use changes).
double budget_now_mib(double requested_mib) {
    const std::optional<std::uint64_t> available = available_memory();
    if (!available) return requested_mib;
    return std::min(requested_mib, largest_share_of_available * static_cast<double>(*available) / mib);
}

// Every length of one series, each in a child process, unless the memory predicted from the
// last measured point passes the budget.
void run_series(const Series& series, double requested_mib) {
    std::optional<std::size_t> last_n;
    double last_mib = 0;
    for (const std::size_t n : lengths) {
        const double budget_mib = budget_now_mib(requested_mib);
        if (last_n && ch08::predicted_over_budget(last_mib, *last_n, n, budget_mib)) {
            const double ratio = static_cast<double>(n) / static_cast<double>(*last_n);
            report_skipped(series, n, last_mib * ratio * ratio, budget_mib);
            continue;
        }
        const auto m = in_child_process<bench::TimeAndMemory>("bench_attention", [&] { return measure(series, n); });
        report(series, n, m);
        last_n = n, last_mib = m.peak_mib_growth;
    }
}

}  // namespace

int main(int argc, char** argv) {
    const std::string only = argc > 1 ? argv[1] : "", pass = argc > 2 ? argv[2] : "";
    if (argc > 3 || (only != "" && only != "chapter03" && only != "streaming") ||
        (pass != "" && pass != "fwd" && pass != "fwd+bwd")) {
        std::cerr << "bench_attention: expected [chapter03|streaming] [fwd|fwd+bwd]\n";
        return 2;
    }
    const std::optional<double> requested_mib = requested_budget_mib();
    if (!requested_mib) return 2;
    if (!tune_runtime().kept_freed_memory) std::cerr << "bench: mallopt was refused; timings include page faults\n";
    const Attention chapter_03 = [](const Var<float>& Q, const Var<float>& K, const Var<float>& V) {
        return ch03::scaled_dot_product_attention(Q, K, V).output;   // (the weights are computed and dropped)
    };
    const Attention tiled = [](const Var<float>& Q, const Var<float>& K, const Var<float>& V) {
        return ch08::tiled_attention(Q, K, V);   // scaled by 1 / sqrt(d), like chapter 03's
    };
    const std::vector<std::pair<std::string, Series>> all = {
        {"chapter03 fwd", {"attention fwd 1 head d64 n", chapter_03, Pass::forward}},
        {"chapter03 fwd+bwd", {"attention fwd+bwd 1 head d64 n", chapter_03, Pass::forward_backward}},
        {"streaming fwd", {"attention fwd streaming 1 head d64 n", tiled, Pass::forward}},
        {"streaming fwd+bwd", {"attention fwd+bwd streaming 1 head d64 n", tiled, Pass::forward_backward}},
    };
    for (const auto& [name, series] : all) {
        const std::string implementation = name.substr(0, name.find(' ')), its_pass = name.substr(name.find(' ') + 1);
        if ((only == "" || only == implementation) && (pass == "" || pass == its_pass)) run_series(series, *requested_mib);
    }
    return 0;
}
