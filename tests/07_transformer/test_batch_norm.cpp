// Batch normalisation, part 11's ablation (chapters/07_transformer/batch_norm.hpp): against
// torch.nn.BatchNorm1d (tests/data/07_transformer/make_batch_norm_cases.py), against central
// differences, and the decoder's subtlety: in training, batch statistics let a position see
// the future that the causal mask hides.
#include "chapters/03_queries_keys_values/causal_mask.hpp"
#include "chapters/07_transformer/batch_norm.hpp"
#include "chapters/07_transformer/decoder_layer.hpp"
#include "chapters/07_transformer/transformer_layers.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/07_transformer/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/property.hpp"

#include <doctest/doctest.h>
#include "common/xtensor_compat.hpp"

using attn::Var;
using A = xt::xarray<double>;
using attn::ch07::NormStatistics;

namespace {

void load_golden_parameters(attn::ch07::LayerNorm<double>& norm) {
    norm.weight.value() = golden07::load("batch_norm/weight");
    norm.bias.value() = golden07::load("batch_norm/bias");
}

// The largest change of the decoder block's output at the first target position when only
// the last target position's input changes.
double first_position_change(NormStatistics statistics, bool training) {
    attn::Rng rng(3);
    attn::ch07::TransformerSizes sizes = golden07::sizes(attn::ch07::NormPlacement::post);
    sizes.statistics = statistics;
    attn::ch07::TransformerDecoderLayer<double> layer(sizes, rng);
    layer.train(training);
    const A memory = support::random_array({2, 5, 16}, 4), y = support::random_array({2, 4, 16}, 5);
    A changed = y;
    xt::view(changed, xt::all(), 3) += 3.0;   // the last position of both sequences
    const auto first = [&](const A& target) {
        const A out = attn::ch07::decoder_layer(layer, attn::constant<double>(target), attn::constant<double>(memory),
                                                attn::ch03::no_mask(), attn::ch03::causal_mask(2, 4))
                          .output.value();
        return A(xt::view(out, xt::all(), 0));
    };
    return xt::amax(xt::abs(first(changed) - first(y)))();
}

}  // namespace

TEST_CASE("07 batch normalisation (part 11)" * doctest::test_suite("ch07")) {
    PROPERTY("two training steps, the running averages and evaluation match torch.nn.BatchNorm1d (momentum 0.1, eps 1e-5)") {
        attn::ch07::LayerNorm<double> norm({6}, 1e-5, NormStatistics::batch);
        load_golden_parameters(norm);
        const Var<double> x1 = attn::parameter<double>(golden07::load("batch_norm/x1"));
        const Var<double> output1 = norm(x1);
        CHECK_ALLCLOSE(output1.value(), golden07::load("batch_norm/output1"), 1e-10, 1e-12);
        attn::backward(attn::sum(output1 * attn::constant<double>(golden07::load("batch_norm/doutput"))));
        CHECK_ALLCLOSE(x1.grad(), golden07::load("batch_norm/dx1"), 1e-9, 1e-11);
        CHECK_ALLCLOSE(norm.weight.grad(), golden07::load("batch_norm/dweight"), 1e-10, 1e-12);
        CHECK_ALLCLOSE(norm.bias.grad(), golden07::load("batch_norm/dbias"), 1e-10, 1e-12);

        CHECK_ALLCLOSE(norm(attn::constant<double>(golden07::load("batch_norm/x2"))).value(),
                       golden07::load("batch_norm/output2"), 1e-10, 1e-12);
        CHECK_ALLCLOSE(norm.running().mean, golden07::load("batch_norm/running_mean"), 1e-12, 1e-13);
        CHECK_ALLCLOSE(norm.running().variance, golden07::load("batch_norm/running_var"), 1e-12, 1e-13);
        CHECK(norm.running().batches == 2);

        norm.eval();
        CHECK_ALLCLOSE(norm(attn::constant<double>(golden07::load("batch_norm/x3"))).value(),
                       golden07::load("batch_norm/output3"), 1e-10, 1e-12);
    };
    PROPERTY("training: each feature has mean 0 over the batch and its positions; the running averages move by a tenth, the variance unbiased") {
        // Hand-derived: from mean 0 and variance 1, one step gives 0.1 mu and 0.9 + 0.1 var N / (N - 1).
        const A x = support::random_array({3, 4, 5}, 7) * 2.0 + 1.0;
        attn::ch07::RunningStatistics<double> running = attn::ch07::fresh_statistics<double>(5);
        const A y = attn::ch07::batch_norm(attn::constant<double>(x), attn::constant<double>(A(xt::ones<double>({5}))),
                                           attn::constant<double>(A(xt::zeros<double>({5}))), running, true)
                        .value();
        const A rows = xt::reshape_view(x, {12, 5});
        const A mu = xt::mean(rows, {0});
        const A variance = xt::mean(xt::square(rows - mu), {0});
        CHECK_ALLCLOSE(A(xt::mean(xt::reshape_view(y, {12, 5}), {0})), A(xt::zeros<double>({5})), 0.0, 1e-13);
        CHECK_ALLCLOSE(A(xt::mean(xt::square(xt::reshape_view(y, {12, 5})), {0})), A(variance / (variance + 1e-5)), 1e-12, 0.0);
        CHECK_ALLCLOSE(running.mean, A(0.1 * mu), 1e-13, 1e-15);
        CHECK_ALLCLOSE(running.variance, A(0.9 + 0.1 * variance * 12.0 / 11.0), 1e-13, 1e-15);
    };
    PROPERTY("training: gradients to x, weight and bias match central differences") {
        const support::GradcheckResult check = support::gradcheck(
            [](const std::vector<Var<double>>& in) {
                attn::ch07::RunningStatistics<double> running = attn::ch07::fresh_statistics<double>(5);
                return attn::ch07::batch_norm(in[0], in[1], in[2], running, true);
            },
            {support::random_array({3, 4, 5}, 8) * 1.5 + 0.5, support::random_array({5}, 9) + 1.0, support::random_array({5}, 10)});
        CHECK_MESSAGE(check.worst_error < 1e-6, check.report);
    };
    PROPERTY("evaluation: each position alone, with the running averages, whatever the rest of the batch") {
        attn::ch07::RunningStatistics<double> running{golden07::load("batch_norm/running_mean"), golden07::load("batch_norm/running_var"), 2};
        const A x = support::random_array({2, 3, 6}, 11), w = support::random_array({6}, 12), b = support::random_array({6}, 13);
        const A y = attn::ch07::batch_norm(attn::constant<double>(x), attn::constant<double>(w), attn::constant<double>(b), running, false).value();
        CHECK_ALLCLOSE(y, A((x - running.mean) / xt::sqrt(running.variance + 1e-5) * w + b), 1e-13, 1e-13);
        CHECK(running.batches == 2);   // evaluation leaves the averages alone
    };
    PROPERTY("a wrongly sized weight, or training on a single sample, is refused") {
        attn::ch07::RunningStatistics<double> running = attn::ch07::fresh_statistics<double>(4);
        const Var<double> w = attn::constant<double>(A(xt::ones<double>({4}))), b = attn::constant<double>(A(xt::zeros<double>({4})));
        CHECK_THROWS_AS(attn::ch07::batch_norm(attn::constant<double>(A(xt::ones<double>({2, 5}))), w, b, running, true), std::invalid_argument);
        CHECK_THROWS_AS(attn::ch07::batch_norm(attn::constant<double>(A(xt::ones<double>({1, 1, 4}))), w, b, running, true), std::invalid_argument);
    };
    PROPERTY("in the decoder, training's batch statistics leak the future past the causal mask; evaluation's running averages do not") {
        CHECK(first_position_change(NormStatistics::batch, true) > 1e-3);
        CHECK(first_position_change(NormStatistics::batch, false) < 1e-12);
        CHECK(first_position_change(NormStatistics::layer, true) < 1e-12);   // layer norm: never
    };
    PROPERTY("the layer-norm path and its parameter names are unchanged by the choice") {
        attn::Rng rng(1);
        attn::ch07::TransformerSizes sizes = golden07::sizes(attn::ch07::NormPlacement::post);
        sizes.statistics = NormStatistics::batch;
        attn::ch07::Transformer<double> batch(sizes, rng);
        attn::Rng rng2(1);
        attn::ch07::Transformer<double> layer(golden07::sizes(attn::ch07::NormPlacement::post), rng2);
        const auto a = batch.named_parameters(), b = layer.named_parameters();
        REQUIRE(a.size() == b.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            CHECK(a[i].first == b[i].first);
            CHECK_ALLCLOSE(a[i].second.value(), b[i].second.value(), 0.0, 0.0);   // the same draws
        }
        CHECK(layer.encoder.norm.statistics() == NormStatistics::layer);
        CHECK(batch.decoder.layers[0]->norm3.statistics() == NormStatistics::batch);
    };
}
