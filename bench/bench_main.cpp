// The toolkit's benchmarks: matrix products at the sizes the chapters use, a batched product,
// and log-softmax + cross-entropy, each forward + backward. One JSON line per measurement.
// Run through ./bench/run, which also runs the PyTorch baseline (bench/torch_baseline.py).
#include "bench/bench_harness.hpp"
#include "common/autodiff/ops.hpp"
#include "common/random.hpp"
#include "common/runtime.hpp"

#include <cstdint>
#include <iostream>

using namespace attn;

namespace {

Array<float> random_array(const Shape& shape, Rng& rng) {
    Array<float> a = Array<float>::from_shape(shape);
    for (float& v : a) v = static_cast<float>(rng.normal());
    return a;
}

// forward and backward of C = A B, as a model's training step does it
void bench_matmul(std::size_t M, std::size_t K, std::size_t N, Rng& rng) {
    const Var<float> A = parameter<float>(random_array({M, K}, rng)), B = parameter<float>(random_array({K, N}, rng));
    const Array<float> dC = random_array({M, N}, rng);
    const double ms = bench::median_ms_per_call([&] {
        backward(matmul(A, B), dC);
        A.zero_grad();
        B.zero_grad();
    }, 50);
    std::cout << bench::json_line({"matmul fwd+bwd " + std::to_string(M) + "x" + std::to_string(K) + " * " +
                                       std::to_string(K) + "x" + std::to_string(N), ms, "ms_per_call"}) << "\n";
}

void bench_bmm(std::size_t batch, std::size_t n, std::size_t d, Rng& rng) {
    const Var<float> Q = parameter<float>(random_array({batch, n, d}, rng)), K = parameter<float>(random_array({batch, n, d}, rng));
    const Array<float> dS = random_array({batch, n, n}, rng);
    const double ms = bench::median_ms_per_call([&] {
        backward(bmm(Q, K, false, true), dS);
        Q.zero_grad();
        K.zero_grad();
    }, 50);
    std::cout << bench::json_line({"bmm fwd+bwd Q K^T (" + std::to_string(batch) + ", " + std::to_string(n) + ", " +
                                       std::to_string(d) + ")", ms, "ms_per_call"}) << "\n";
}

void bench_cross_entropy(std::size_t rows, std::size_t classes, Rng& rng) {
    const Var<float> logits = parameter<float>(random_array({rows, classes}, rng));
    xt::xarray<std::int64_t> targets = xt::zeros<std::int64_t>({rows});
    for (std::size_t r = 0; r < rows; ++r) targets(r) = static_cast<std::int64_t>(rng.below(classes));
    const double ms = bench::median_ms_per_call([&] {
        backward(cross_entropy(logits, targets, 0));
        logits.zero_grad();
    }, 200);
    std::cout << bench::json_line({"log_softmax+cross_entropy fwd+bwd (" + std::to_string(rows) + ", " +
                                       std::to_string(classes) + ")", ms, "ms_per_call"}) << "\n";
}

}  // namespace

int main() {
    if (!tune_runtime().kept_freed_memory) std::cerr << "bench: mallopt was refused; timings include page faults\n";
    Rng rng(0);
    bench_matmul(64, 160, 384, rng);    // a GRU's input-to-gates product: (batch, emb + context) x (.., 3H)
    bench_matmul(64, 128, 384, rng);    // hidden-to-gates: (batch, H) x (H, 3H)
    bench_matmul(2048, 128, 128, rng);  // keys projected once: (batch * src_len, H) x (H, H)
    bench_matmul(768, 128, 16, rng);    // output layer over a whole target: (batch * tgt_len, H) x (H, vocab)
    bench_bmm(64, 32, 32, rng);
    bench_cross_entropy(64 * 12, 16, rng);
    return 0;
}
