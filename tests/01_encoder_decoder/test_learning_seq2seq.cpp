// Chapter 01's model code: the whole encoder-decoder gradient-checked in float64 on a tiny
// case, and a learning test: on a small dates corpus the loss falls below a threshold.
#include "chapters/01_encoder_decoder/seq2seq.hpp"
#include "chapters/01_encoder_decoder/task.hpp"
#include "chapters/01_encoder_decoder/training.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/01_encoder_decoder/model_gradcheck.hpp"

#include <doctest/doctest.h>

TEST_CASE("ch01 model: the encoder-decoder's gradient matches central differences" * doctest::test_suite("ch01.golden")) {
    attn::Rng rng(3);
    attn::ch01::ContextSeq2Seq<double> model({7, 6, 3, 4}, rng);
    const attn::data::Batch batch = support::tiny_translation_batch();
    for (const std::string name : {"decoder.gru.weight_hh_l0", "encoder.gru.weight_ih_l0", "decoder.output.bias", "encoder.embedding.weight"}) {
        CAPTURE(name);
        CHECK(support::model_gradient_error(model, batch, name) < 1e-6);   // a chain of many ops
    }
}

TEST_CASE("ch01 learning: on dates the validation loss falls below 0.8 within 150 steps" * doctest::test_suite("ch01.learning")) {
    const attn::ch01::Task task = attn::ch01::load_task("dates", "", 7, /*quick=*/true);
    attn::Rng rng(7);
    attn::ch01::ContextSeq2Seq<float> model({task.source_vocab.size(), task.target_vocab.size(), 32, 64}, rng);
    attn::ch01::TrainConfig config;
    config.steps = 150;
    config.eval_every = 150;
    config.label = "  learning test";
    const attn::ch01::TrainLog log = attn::ch01::train(model, task, config);
    // A uniform guess over the 15 target tokens costs ln 15 = 2.71 nats; below 0.8 the
    // model already writes most characters right.
    CHECK(log.train_loss.front() > 2.0);
    CHECK(log.valid_loss.back() < 0.8);   // seed 7 reaches about 0.5
}
