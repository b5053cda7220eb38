// The chapter-07 training benchmark: one training step of chapter 07's translation model
// (TransformerSeq2Seq, chapters/07_transformer/translation_model.*: the model the lesson
// trains) in the configuration of nn.Transformer's comparison: d_model 64, 4 heads,
// feed-forward 256, 2 encoder and 2 decoder layers, post-norm with the final norms, dropout 0,
// ReLU, source and target vocabularies 256 with separate embedding tables, embeddings times
// sqrt(64) plus sinusoidal positions, output Linear(64 -> 256), batch 64, source and target
// length 24, no padding, causal target mask, mean cross-entropy over all tokens (the
// training's loss without label smoothing); one step = forward, backward and an Adam update,
// float32. bench/transformer_torch.py is the same model in PyTorch. Usage: bench_transformer
// [STEPS_PER_REPEAT] (default 30), or bench_transformer --check: the loss of each of the first
// 3 steps instead (as transformer_torch.py --check).
#include "bench/bench_harness.hpp"
#include "chapters/07_transformer/translation_model.hpp"
#include "common/autodiff/ops.hpp"
#include "common/nn/optim.hpp"
#include "common/runtime.hpp"

#include <iostream>
#include <string>

using namespace attn;

namespace {

constexpr std::size_t vocab = 256, batch = 64, source_len = 24, target_len = 24;
constexpr std::int64_t first_token = 4;   // ids 0-3: padding and the special tokens (none occur here)

// The number of weights of nn.Transformer's layout with the two embedding tables and the
// output layer, counted by hand, so a model that lost or duplicated a parameter is caught
// before it is timed (the PyTorch side prints its own count, and bench/run compares the two).
std::size_t expected_parameters(const ch07::TransformerSizes& s) {
    const std::size_t d = s.d_model, f = s.feed_forward;
    const std::size_t attention = 3 * d * d + 3 * d + d * d + d;   // in_proj (weight, bias), out_proj
    const std::size_t feed_forward = d * f + f + f * d + d;         // linear1, linear2
    const std::size_t norm = 2 * d;                                 // weight, bias
    const std::size_t encoder_layer = attention + feed_forward + 2 * norm;
    const std::size_t decoder_layer = 2 * attention + feed_forward + 3 * norm;
    return 2 * vocab * d                                            // two embedding tables
           + s.encoder_layers * encoder_layer + norm                // encoder with its final norm
           + s.decoder_layers * decoder_layer + norm                // decoder with its final norm
           + d * vocab + vocab;                                     // output layer
}

IndexMatrix random_tokens(std::size_t n, Rng& rng) {
    IndexMatrix ids = xt::zeros<std::int64_t>({batch, n});
    for (auto& id : ids) id = first_token + static_cast<std::int64_t>(rng.below(vocab - first_token));
    return ids;
}

// Every sequence at full length: no padding anywhere, so the model masks only the future.
data::Batch unpadded_batch(Rng& rng) {
    data::Batch b;
    b.source = random_tokens(source_len, rng);
    b.source_lens = xt::full_like(IndexVector::from_shape({batch}), static_cast<std::int64_t>(source_len));
    b.target_in = random_tokens(target_len, rng);
    b.target_out = random_tokens(target_len, rng);
    b.target_lens = xt::full_like(IndexVector::from_shape({batch}), static_cast<std::int64_t>(target_len));
    return b;
}

}  // namespace

int main(int argc, char** argv) {
    const bool check = argc > 1 && std::string(argv[1]) == "--check";
    const int steps = argc > 1 && !check ? std::atoi(argv[1]) : 30;
    if (steps <= 0) {
        std::cerr << "bench_transformer: STEPS_PER_REPEAT must be a positive integer, got '" << argv[1] << "'\n";
        return 2;
    }
    tune_runtime();
    const double baseline_mib = bench::peak_resident_mib();
    Rng rng(0);
    ch07::TranslationSizes sizes;
    sizes.source_vocab = sizes.target_vocab = vocab;
    sizes.transformer = {64, 4, 256, 2, 2, ch07::NormPlacement::post};
    ch07::TransformerSeq2Seq<float> model(sizes, rng);   // the chapter's default embedding initialisation
    if (model.parameter_count() != expected_parameters(sizes.transformer)) {
        std::cerr << "bench_transformer: the model has " << model.parameter_count() << " weights, nn.Transformer's layout "
                  << expected_parameters(sizes.transformer) << "; fix the layers before timing them\n";
        return 1;
    }
    Adam<float> adam(model.parameters(), 1e-3);
    const data::Batch data = unpadded_batch(rng);

    const auto step = [&] {
        // The training's loss (chapters/01_encoder_decoder/training.cpp) without label smoothing:
        // the mean over all target tokens, since none is padding.
        const Var<float> loss = cross_entropy(model.forward(data), data.target_out, data::pad_id);
        adam.zero_grad();
        backward(loss);
        adam.step();
        return loss;
    };
    if (check) {
        std::cout << "parameters " << model.parameter_count() << "\n";
        for (int i = 1; i <= 3; ++i) std::cout << "step " << i << " loss " << step().value()() << "\n";
        return 0;
    }
    std::cout << bench::json_line(bench::time_training_step("transformer d64 h4 ff256 2+2 b64 s24 t24 v256",
                                                            [&] { step(); }, steps, model.parameter_count(), baseline_mib))
              << "\n";
    return 0;
}
