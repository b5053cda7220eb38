// Chapter 07's translation model: its masks (the future, source padding and target padding
// never reach a score), greedy decoding (the decoder run over the whole prefix at each step)
// agreeing with teacher forcing, and a learning test (a fixed seed and a threshold): on a small
// dates corpus the Transformer's validation loss falls far below a uniform guess.
#include "chapters/01_encoder_decoder/task.hpp"
#include "chapters/01_encoder_decoder/training.hpp"
#include "chapters/07_transformer/translation_model.hpp"
#include "tests/07_transformer/tiny_model.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

using namespace attn;
using attn::ch07::TransformerSeq2Seq;
using attn::ch07::TranslationSizes;

namespace {

using attn::ch07::testing::tiny_sizes;

// Two pairs: sources of 4 and 2 tokens (the second padded), targets of 3 and 1.
data::Batch tiny_batch() {
    data::Batch batch;
    batch.source = IndexMatrix{{4, 5, 6, 7}, {8, 4, data::pad_id, data::pad_id}};
    batch.source_lens = IndexVector{4, 2};
    batch.target_in = IndexMatrix{{data::bos_id, 4, 5, 6}, {data::bos_id, 7, data::pad_id, data::pad_id}};
    batch.target_out = IndexMatrix{{4, 5, 6, data::eos_id}, {7, data::eos_id, data::pad_id, data::pad_id}};
    batch.target_lens = IndexVector{4, 2};   // <bos>/<eos> included
    return batch;
}

double largest_difference(const Array<double>& a, const Array<double>& b) { return xt::amax(xt::abs(a - b))(); }

}  // namespace

TEST_CASE("ch07 model: what the masks hide never changes a score" * doctest::test_suite("ch07")) {
    Rng rng(5);
    TransformerSeq2Seq<double> model(tiny_sizes(), rng);
    const NoGradGuard no_grad;
    const data::Batch batch = tiny_batch();
    const Array<double> logits = model.forward(batch).value();   // (2, 4, 8)
    CHECK(logits.shape() == Shape{2, 4, 8});

    SUBCASE("a later target token does not change the scores before it (the causal mask)") {
        data::Batch changed = batch;
        changed.target_in(0, 2) = 7;   // the input at position 2
        const Array<double> after = model.forward(changed).value();
        CHECK(largest_difference(xt::view(after, 0, xt::range(0, 2)), xt::view(logits, 0, xt::range(0, 2))) < 1e-12);
        CHECK(largest_difference(xt::view(after, 0, 2), xt::view(logits, 0, 2)) > 1e-6);   // but its own position's
    }
    SUBCASE("the tokens under the source's padding change nothing (source and memory padding)") {
        data::Batch changed = batch;
        changed.source(1, 2) = 5;
        changed.source(1, 3) = 6;
        CHECK(largest_difference(model.forward(changed).value(), logits) < 1e-12);
    }
    SUBCASE("the tokens under the target's padding change no real position's scores (target padding)") {
        data::Batch changed = batch;
        changed.target_in(1, 2) = 5;
        changed.target_in(1, 3) = 6;
        const Array<double> after = model.forward(changed).value();
        CHECK(largest_difference(xt::view(after, 1, xt::range(0, 2)), xt::view(logits, 1, xt::range(0, 2))) < 1e-12);
    }
    SUBCASE("a real source token does change the scores (the test above can fail)") {
        data::Batch changed = batch;
        changed.source(1, 1) = 5;
        CHECK(largest_difference(xt::view(model.forward(changed).value(), 1), xt::view(logits, 1)) > 1e-6);
    }
}

TEST_CASE("ch07 model: each greedy decoding step scores as teacher forcing does" * doctest::test_suite("ch07")) {
    Rng rng(6);
    TransformerSeq2Seq<double> model(tiny_sizes(), rng);
    const NoGradGuard no_grad;
    model.eval();
    const data::Batch batch = tiny_batch();
    const Array<double> logits = model.forward(batch).value();
    ch01::DecodeStep<double> step = model.decoder(batch.source, batch.source_lens);
    // Feed the first sequence's teacher-forced inputs; the second sentence's inputs past its
    // end are arbitrary tokens (padding is not masked while decoding), so only its first
    // two positions are compared.
    for (std::size_t t = 0; t < 4; ++t) {
        CAPTURE(t);
        const IndexVector previous{batch.target_in(0, t), t < 2 ? batch.target_in(1, t) : std::int64_t{4}};
        const Array<double> scores = step(previous).value();   // (2, 8)
        CHECK(largest_difference(xt::view(scores, 0), xt::view(logits, 0, t)) < 1e-9);
        if (t < 2) CHECK(largest_difference(xt::view(scores, 1), xt::view(logits, 1, t)) < 1e-9);
    }
}

TEST_CASE("ch07 model: parameters carry nn.Transformer's names under transformer." * doctest::test_suite("ch07")) {
    Rng rng(7);
    TransformerSeq2Seq<float> model(tiny_sizes(), rng);
    std::vector<std::string> names;
    for (const auto& [name, parameter] : model.named_parameters()) names.push_back(name);
    for (const std::string expected : {"source_embedding.weight", "target_embedding.weight",
                                       "transformer.encoder.layers.0.self_attn.in_proj_weight",
                                       "transformer.decoder.layers.1.multihead_attn.out_proj.bias",
                                       "transformer.encoder.norm.weight", "transformer.decoder.norm.bias",
                                       "output.weight", "output.bias"}) {
        CAPTURE(expected);
        CHECK(std::find(names.begin(), names.end(), expected) != names.end());
    }
}

TEST_CASE("ch07 learning: on dates the Transformer's validation loss falls below 0.5 within 200 steps" *
          doctest::test_suite("ch07.learning")) {
    const ch01::Task task = ch01::load_task("dates", "", 7, /*quick=*/true);
    TranslationSizes sizes;
    sizes.source_vocab = task.source_vocab.size();
    sizes.target_vocab = task.target_vocab.size();
    sizes.transformer.d_model = 32;
    sizes.transformer.heads = 2;
    sizes.transformer.feed_forward = 64;
    sizes.transformer.encoder_layers = sizes.transformer.decoder_layers = 1;
    Rng rng(7);
    TransformerSeq2Seq<float> model(sizes, rng);
    ch01::TrainConfig config;
    config.steps = 200;
    config.eval_every = 200;
    config.lr = 4e-3;
    config.warmup = 40;
    config.label = "  learning test";
    const ch01::TrainLog log = ch01::train(model, task, config);
    // A uniform guess over the target tokens costs ln(vocabulary) nats (about 2.7).
    CHECK(log.train_loss.front() > 2.0);
    CHECK(log.valid_loss.back() < 0.5);   // seed 7 reaches about 0.34
}
