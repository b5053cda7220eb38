// The chapter-02 training benchmark ("S2S"): character level, source vocabulary 64, target
// vocabulary 16, embedding 32, GRU hidden 128 on both sides, additive attention of size 128,
// batch 64, source length 32 (valid lengths 20-32), target length 12; one step = forward,
// backward and an Adam update, float32. bench/s2s_torch.py is the same model in PyTorch.
#include "bench/bench_harness.hpp"
#include "chapters/02_bahdanau_attention/bahdanau.hpp"
#include "common/autodiff/ops.hpp"
#include "common/nn/optim.hpp"
#include "common/runtime.hpp"

#include <iostream>

using namespace attn;

int main(int argc, char** argv) {
    const int steps = argc > 1 ? std::atoi(argv[1]) : 30;
    if (steps <= 0) {
        std::cerr << "bench_s2s: STEPS_PER_REPEAT must be a positive integer, got '" << argv[1] << "'\n";
        return 2;
    }
    tune_runtime();
    const double baseline_mib = bench::peak_resident_mib();
    Rng rng(0);
    constexpr std::size_t batch = 64, source_len = 32, target_len = 12;
    ch02::BahdanauSeq2Seq<float> model({64, 16, 32, 128}, rng);
    Adam<float> adam(model.parameters(), 1e-3);
    data::Batch data;
    data.source = xt::zeros<std::int64_t>({batch, source_len});
    data.source_lens = xt::zeros<std::int64_t>({batch});
    data.target_in = xt::zeros<std::int64_t>({batch, target_len});
    data.target_out = xt::zeros<std::int64_t>({batch, target_len});
    for (std::size_t b = 0; b < batch; ++b) {
        data.source_lens(b) = 20 + static_cast<std::int64_t>(rng.below(13));
        for (std::size_t j = 0; j < static_cast<std::size_t>(data.source_lens(b)); ++j)
            data.source(b, j) = 4 + static_cast<std::int64_t>(rng.below(60));
        for (std::size_t t = 0; t < target_len; ++t) {
            data.target_in(b, t) = 4 + static_cast<std::int64_t>(rng.below(12));
            data.target_out(b, t) = 4 + static_cast<std::int64_t>(rng.below(12));
        }
    }
    const auto step = [&] {
        const Var<float> loss = cross_entropy(model.forward(data), data.target_out, 0);
        adam.zero_grad();
        backward(loss);
        adam.step();
    };
    std::cout << bench::json_line(bench::time_training_step("s2s bahdanau gru h128 b64 s32 t12", step, steps,
                                                            model.parameter_count(), baseline_mib))
              << "\n";
    return 0;
}
