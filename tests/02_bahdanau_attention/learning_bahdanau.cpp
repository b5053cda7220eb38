// Chapter 02's model code: the attention model's gradient against central differences, and
// a learning test: on a small dates corpus it reaches a high exact match in a few steps.
#include "chapters/01_encoder_decoder/evaluation.hpp"
#include "chapters/01_encoder_decoder/training.hpp"
#include "chapters/02_bahdanau_attention/bahdanau.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/support/gradients.hpp"

#include <doctest/doctest.h>

TEST_CASE("ch02 model: the attention model's gradient matches central differences" * doctest::test_suite("ch02.golden")) {
    attn::Rng rng(4);
    attn::ch02::BahdanauSeq2Seq<double> model({7, 6, 3, 4}, rng);
    const std::vector<attn::data::Pair> pairs = {{{"a", "b", "c"}, {"x", "y"}}, {{"c"}, {"y", "y", "x"}}};
    const attn::data::Vocab source = attn::data::Vocab::build({{"a", "b", "c"}}), target = attn::data::Vocab::build({{"x", "y"}});
    const attn::data::Batch batch = attn::data::make_batch(pairs, {0, 1}, source, target);
    for (const std::string name : {"decoder.attention.W_q.weight", "decoder.attention.w_v.weight", "encoder.gru.weight_hh_l0"}) {
        CAPTURE(name);
        attn::Var<double> weight;
        for (const auto& [n, v] : model.named_parameters())
            if (n == name) weight = v;
        REQUIRE(weight.defined());
        const auto loss = [&]() { return attn::cross_entropy(model.forward(batch), batch.target_out, attn::data::pad_id); };
        model.zero_grad();
        attn::backward(loss());
        const xt::xarray<double> analytic = weight.grad(), original = weight.value();
        const xt::xarray<double> numeric = support::numerical_gradient([&](const xt::xarray<double>& w) {
            weight.value() = w;
            const double value = loss().item();
            weight.value() = original;
            return value;
        }, original);
        CHECK(support::max_relative_error(analytic, numeric) < 1e-6);
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
