// Chapter 02's model code: the attention model's gradient against central differences, the
// attention weights it returns with its logits, and a learning test: on a small dates corpus
// it reaches a high exact match in a few steps.
#include "chapters/01_encoder_decoder/evaluation.hpp"
#include "chapters/01_encoder_decoder/training.hpp"
#include "chapters/02_bahdanau_attention/bahdanau.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/01_encoder_decoder/model_gradcheck.hpp"
#include "tests/support/check_allclose.hpp"

#include <doctest/doctest.h>

TEST_CASE("ch02 model: the attention model's gradient matches central differences" * doctest::test_suite("ch02.golden")) {
    attn::Rng rng(4);
    attn::ch02::BahdanauSeq2Seq<double> model({7, 6, 3, 4}, rng);
    const attn::data::Batch batch = support::tiny_translation_batch();
    for (const std::string name : {"decoder.attention.W_q.weight", "decoder.attention.w_v.weight", "encoder.gru.weight_hh_l0"}) {
        CAPTURE(name);
        CHECK(support::model_gradient_error(model, batch, name) < 1e-6);   // a chain of many ops
    }
}

TEST_CASE("ch02 model: it returns its attention weights with its logits" * doctest::test_suite("ch02.golden")) {
    attn::Rng rng(5);
    attn::ch02::BahdanauSeq2Seq<double> model({7, 6, 3, 4}, rng);
    const attn::data::Batch batch = support::tiny_translation_batch();   // sources of 3 and 1 tokens
    const attn::ch02::ModelOutput<double> out = model.forward_with_weights(batch);
    const std::size_t T = batch.target_in.shape(1), S = batch.source.shape(1);
    REQUIRE(out.logits.shape() == attn::Shape{2, T, 6});
    REQUIRE(out.weights.shape() == attn::Shape{2, T, S});

    SUBCASE("each step's weights are a distribution over the valid source positions") {
        support::check_weights_over_sources(out.weights.value(), batch);
    }
    SUBCASE("the logits are forward()'s") {
        CHECK_ALLCLOSE(out.logits.value(), model.forward(batch).value(), 0.0, 0.0);
    }
    SUBCASE("a decoding step returns the same alpha_1 as teacher forcing (both start from <bos>)") {
        const attn::ch02::AttentionDecodeStep<double> step = model.attention_decoder(batch.source, batch.source_lens);
        const attn::IndexVector bos = {attn::data::bos_id, attn::data::bos_id};
        const attn::ch02::ModelOutput<double> first = step(bos);
        REQUIRE(first.weights.shape() == attn::Shape{2, S});
        const xt::xarray<double> expected = xt::view(out.weights.value(), xt::all(), 0, xt::all());
        CHECK_ALLCLOSE(first.weights.value(), expected, 1e-15, 1e-15);
    }
}

TEST_CASE("ch02 learning: on dates, attention reaches 45% exact match within 150 steps" * doctest::test_suite("ch02.learning")) {
    const attn::ch01::Task task = attn::ch01::load_task("dates", "", 7, /*quick=*/true);
    attn::Rng rng(7);
    attn::ch02::BahdanauSeq2Seq<float> model({task.source_vocab.size(), task.target_vocab.size(), 32, 128}, rng);
    attn::ch01::TrainConfig config;
    config.steps = 150;
    config.eval_every = 150;
    config.label = "  learning test";
    attn::ch01::train(model, task, config);
    const attn::ch01::Evaluation result = attn::ch01::evaluate(model, task, task.corpus.test);
    // Seed 7 reaches 0.565; chapter 01's model, at the same settings, about 0.1.
    CHECK(result.overall.exact_match > 0.45);
}
