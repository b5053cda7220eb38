// Chapter 03's Luong-style decoder: its gradients, its weights, decoding step by step against
// teacher forcing, and a learning test on dates.
#include "chapters/01_encoder_decoder/evaluation.hpp"
#include "chapters/01_encoder_decoder/task.hpp"
#include "chapters/01_encoder_decoder/training.hpp"
#include "chapters/03_queries_keys_values/luong.hpp"
#include "tests/01_encoder_decoder/model_gradcheck.hpp"
#include "tests/support/check_allclose.hpp"

using attn::ch03::LuongScore;

TEST_CASE("ch03 model: the Luong decoder's gradients match central differences" * doctest::test_suite("ch03.golden")) {
    const attn::data::Batch batch = support::tiny_translation_batch();
    for (const LuongScore score : {LuongScore::dot, LuongScore::general}) {
        attn::Rng rng(4);
        attn::ch03::LuongSeq2Seq<double> model({7, 6, 3, 4}, score, rng);
        std::vector<std::string> names = {"decoder.W_c.weight", "decoder.gru.weight_hh_l0", "encoder.gru.weight_ih_l0"};
        if (score == LuongScore::general) names.push_back("decoder.W_a.weight");
        for (const std::string& name : names) {
            CAPTURE(name);
            CHECK(support::model_gradient_error(model, batch, name) < 1e-6);   // a chain of many ops
        }
    }
}

TEST_CASE("ch03 model: the Luong decoder's weights, and decoding step by step equals teacher forcing" *
          doctest::test_suite("ch03.golden")) {
    attn::Rng rng(5);
    attn::ch03::LuongSeq2Seq<double> model({7, 6, 3, 4}, LuongScore::general, rng);
    const attn::data::Batch batch = support::tiny_translation_batch();   // sources of 3 and 1 tokens
    const attn::ch02::ModelOutput<double> out = model.forward_with_weights(batch);
    const std::size_t T = batch.target_in.shape(1), S = batch.source.shape(1);
    REQUIRE(out.logits.shape() == attn::Shape{2, T, 6});
    REQUIRE(out.weights.shape() == attn::Shape{2, T, S});

    SUBCASE("each step's weights are a distribution over the valid source positions") {
        support::check_weights_over_sources(out.weights.value(), batch);
    }
    SUBCASE("feeding the teacher's tokens one step at a time gives the same logits and weights") {
        attn::ch02::AttentionDecodeStep<double> step = model.attention_decoder(batch.source, batch.source_lens);
        for (std::size_t t = 0; t < T; ++t) {
            const attn::IndexVector previous = xt::view(batch.target_in, xt::all(), t);
            const attn::ch02::ModelOutput<double> one = step(previous);
            CHECK_ALLCLOSE(one.logits.value(), xt::xarray<double>(xt::view(out.logits.value(), xt::all(), t, xt::all())), 1e-12, 1e-12);
            CHECK_ALLCLOSE(one.weights.value(), xt::xarray<double>(xt::view(out.weights.value(), xt::all(), t, xt::all())), 1e-12, 1e-12);
        }
    }
    SUBCASE("its parameters: W_a only for the general score") {
        attn::Rng other(1);
        attn::ch03::LuongSeq2Seq<double> dot({7, 6, 3, 4}, LuongScore::dot, other);
        CHECK(dot.parameter_count() + 4 * 4 == model.parameter_count());
    }
}

TEST_CASE("ch03 learning: on dates, the Luong decoder reaches 45% exact match within 150 steps" *
          doctest::test_suite("ch03.learning")) {
    const attn::ch01::Task task = attn::ch01::load_task("dates", "", 7, /*quick=*/true);
    attn::Rng rng(7);
    attn::ch03::LuongSeq2Seq<float> model({task.source_vocab.size(), task.target_vocab.size(), 32, 128},
                                          LuongScore::dot, rng);
    attn::ch01::TrainConfig config;
    config.steps = 150;
    config.eval_every = 150;
    config.label = "  learning test";
    attn::ch01::train(model, task, config);
    const attn::ch01::Evaluation result = attn::ch01::evaluate(model, task, task.corpus.test);
    CHECK(result.overall.exact_match > 0.45);   // chapter 02's test at the same settings asks the same
}
