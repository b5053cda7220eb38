// Scaled dot-product attention, forward only, one head: softmax(Q K^T / sqrt(d)) V for
// batch 1, d = 64, float32, n queries and n keys, through chapter 03's function (the
// reference solution). Against bench/attention_torch.py. For each n: milliseconds per call,
// GFLOP/s of the two products (4 n^2 d flops), and the process's peak resident memory so far
// (sizes run in increasing order, so it is each size's peak; "baseline_mib" is the process
// before the first size).
#include "bench/bench_harness.hpp"
#include "chapters/03_queries_keys_values/scaled_dot_product_attention.hpp"
#include "common/autodiff/ops.hpp"
#include "common/random.hpp"
#include "common/runtime.hpp"

#include <iostream>

using namespace attn;

int main() {
    if (!tune_runtime().kept_freed_memory) std::cerr << "bench: mallopt was refused; timings include page faults\n";
    const double baseline = bench::peak_resident_mib();
    Rng rng(0);
    const std::size_t d = 64;
    for (const std::size_t n : {128, 256, 512, 1024, 2048, 4096}) {
        const auto random = [&](std::size_t rows) {
            Array<float> a = Array<float>::from_shape({1, rows, d});
            for (float& v : a) v = static_cast<float>(rng.normal());
            return constant<float>(a);
        };
        const Var<float> Q = random(n), K = random(n), V = random(n);
        const NoGradGuard no_grad;
        const int calls = n <= 512 ? 20 : n <= 2048 ? 5 : 2;
        const double ms = bench::median_ms_per_call([&] { ch03::scaled_dot_product_attention(Q, K, V); }, calls, 5, 1);
        const double gflops = 4.0 * static_cast<double>(n * n * d) / (ms * 1e6);
        std::cout << bench::json_line({"attention fwd 1 head d64 n" + std::to_string(n), ms, "ms_per_call",
                                       {{"gflops", gflops}, {"peak_mib", bench::peak_resident_mib()},
                                        {"baseline_mib", baseline}}})
                  << "\n";
    }
    return 0;
}
