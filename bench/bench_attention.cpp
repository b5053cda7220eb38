// Scaled dot-product attention, forward only, one head: softmax(Q K^T / sqrt(d)) V for
// batch 1, d = 64, float32, n queries and n keys, no gradient. Two implementations:
//   "attention fwd 1 head d64 nN"            chapter 03's function (the reference solution),
//                                            which holds the n x n matrix, n = 128 ... 4096;
//   "attention fwd streaming 1 head d64 nN"  chapter 08's tiled_attention (exercises 08.1-08.2:
//                                            tiles and an online softmax, memory O(n d)),
//                                            n = 128 ... 8192. (The name is kept from when the
//                                            op was the toolkit's streaming_attention.)
// Against bench/attention_torch.py. For each n: milliseconds per call, GFLOP/s of the two
// products (4 n^2 d flops), and the growth of peak resident memory during one call. Each point
// runs in a child process of its own, so no earlier allocation hides a later one.
// `bench_attention chapter03` or `bench_attention streaming` runs one of the two alone (to
// profile it: `perf record build/bin/bench_attention streaming`).
#include "bench/bench_harness.hpp"
#include "chapters/03_queries_keys_values/scaled_dot_product_attention.hpp"
#include "chapters/08_attention_at_scale/tiled_attention.hpp"
#include "common/autodiff/ops.hpp"
#include "common/child_process.hpp"
#include "common/random.hpp"
#include "common/runtime.hpp"

#include <functional>
#include <iostream>
#include <string>

using namespace attn;

namespace {

constexpr std::size_t d = 64;
using Attention = std::function<Var<float>(const Var<float>&, const Var<float>&, const Var<float>&)>;

Var<float> random_input(std::size_t n, Rng& rng) {   // (1, n, d), N(0, 1)
    Array<float> a = Array<float>::from_shape({1, n, d});
    for (float& v : a) v = static_cast<float>(rng.normal());
    return constant<float>(std::move(a));
}

// The memory of the first call (after a call at n = 2 that sets up what any first call sets up
// once, such as OpenBLAS's buffers), then the median time per call.
bench::TimeAndMemory measure(const Attention& attention, std::size_t n) {
    const NoGradGuard no_grad;
    Rng rng(n);
    const Var<float> q = random_input(2, rng);
    attention(q, q, q);
    const Var<float> Q = random_input(n, rng), K = random_input(n, rng), V = random_input(n, rng);
    bench::TimeAndMemory result;
    result.peak_mib_growth = peak_growth_mib([&] { attention(Q, K, V); });
    const int calls = n <= 512 ? 20 : n <= 2048 ? 5 : n <= 4096 ? 2 : 1;
    result.ms = bench::median_ms_per_call([&] { attention(Q, K, V); }, calls, 5, 1);
    return result;
}

void report(const std::string& config, std::size_t n, const bench::TimeAndMemory& m) {
    const double gflops = 4.0 * static_cast<double>(n * n * d) / (m.ms * 1e6);
    std::cout << bench::json_line({config + std::to_string(n), m.ms, "ms_per_call",
                                   {{"gflops", gflops}, {"peak_mib_growth", m.peak_mib_growth}}})
              << std::endl;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string only = argc > 1 ? argv[1] : "";
    if (argc > 2 || (only != "" && only != "chapter03" && only != "streaming")) {
        std::cerr << "bench_attention: expected no argument, 'chapter03' or 'streaming'\n";
        return 2;
    }
    if (!tune_runtime().kept_freed_memory) std::cerr << "bench: mallopt was refused; timings include page faults\n";
    const Attention chapter_03 = [](const Var<float>& Q, const Var<float>& K, const Var<float>& V) {
        return ch03::scaled_dot_product_attention(Q, K, V).output;   // (the weights are computed and dropped)
    };
    const Attention streaming = [](const Var<float>& Q, const Var<float>& K, const Var<float>& V) {
        return ch08::tiled_attention(Q, K, V);   // scaled by 1 / sqrt(d), like chapter 03's
    };
    if (only != "streaming")
        for (const std::size_t n : {128, 256, 512, 1024, 2048, 4096})
            report("attention fwd 1 head d64 n", n, in_child_process<bench::TimeAndMemory>("bench", [&] { return measure(chapter_03, n); }));
    if (only != "chapter03")
        for (const std::size_t n : {128, 256, 512, 1024, 2048, 4096, 8192})
            report("attention fwd streaming 1 head d64 n", n,
                   in_child_process<bench::TimeAndMemory>("bench", [&] { return measure(streaming, n); }));
    return 0;
}
