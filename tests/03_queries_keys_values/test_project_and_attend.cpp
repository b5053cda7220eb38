// Self-checks for exercise 03.5: project_and_attend
// (exercises/03_queries_keys_values/project_and_attend.cpp).
#include "chapters/03_queries_keys_values/project_and_attend.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/03_queries_keys_values/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/property.hpp"

#include <cmath>

using attn::Var;
using attn::ch03::Mask;
using A = xt::xarray<double>;

namespace {

// The golden case's layer (query 6, key 5, value 4, d_k 3, d_v 2) and its mask.
struct GoldenLayer {
    attn::Rng rng{1};
    attn::ch03::AttentionLayer<double> layer{{6, 5, 4, 3, 2}, rng};
    Mask blocked;
    GoldenLayer() {
        layer.W_q.weight.value() = golden03::load("layer_W_q");
        layer.W_k.weight.value() = golden03::load("layer_W_k");
        layer.W_v.weight.value() = golden03::load("layer_W_v");
        const xt::xarray<std::int64_t> lens = golden03::load_ids("layer_valid_lens");
        blocked = xt::zeros<bool>({std::size_t{2}, std::size_t{3}, std::size_t{5}});
        for (std::size_t b = 0; b < 2; ++b)
            for (std::size_t i = 0; i < 3; ++i)
                for (std::size_t j = 0; j < 5; ++j) blocked(b, i, j) = static_cast<std::int64_t>(j) >= lens(b);
    }
};

}  // namespace

TEST_CASE("03.5 project_and_attend" * doctest::test_suite("ch03")) {
    PROPERTY("the values go through W_v: one key returns W_v v") {
        attn::Rng rng(1);
        attn::ch03::AttentionLayer<double> layer({1, 1, 1, 1, 1}, rng);
        layer.W_v.weight.value() = golden03::t2({{3.0}});
        const auto result = attn::ch03::project_and_attend(layer, attn::constant<double>(golden03::t3({{{1.0}}})),
                                                           attn::constant<double>(golden03::t3({{{1.0}}})),
                                                           attn::constant<double>(golden03::t3({{{2.0}}})));
        CHECK_ALLCLOSE(result.output.value(), golden03::t3({{{6.0}}}), 1e-15, 0.0);
    };
    PROPERTY("the keys go through W_k, not W_q: W_q = 1 and W_k = 0 make every key score 0 (uniform weights)") {
        attn::Rng rng(1);
        attn::ch03::AttentionLayer<double> layer({1, 1, 1, 1, 1}, rng);
        layer.W_q.weight.value() = golden03::t2({{1.0}});
        layer.W_k.weight.value() = golden03::t2({{0.0}});
        const auto result = attn::ch03::project_and_attend(layer, attn::constant<double>(golden03::t3({{{1.0}}})),
                                                           attn::constant<double>(golden03::t3({{{1.0}, {5.0}}})),
                                                           attn::constant<double>(golden03::t3({{{1.0}, {2.0}}})));
        CHECK_ALLCLOSE(result.weights.value(), golden03::t3({{{0.5, 0.5}}}), 1e-15, 0.0);
    };
    PROPERTY("a case worked by hand: the queries are compared with W_k keys, the output is made of W_v values") {
        // d_k = d_v = 1: q' = 2 * 1 = 2, k' = 1 * [1, 0] = [1, 0], scores 2 / sqrt(1) = [2, 0];
        // v' = 3 * [1, 2] = [3, 6]; output = (3 e^2 + 6) / (e^2 + 1)
        attn::Rng rng(1);
        attn::ch03::AttentionLayer<double> layer({1, 1, 1, 1, 1}, rng);
        layer.W_q.weight.value() = golden03::t2({{2.0}});
        layer.W_k.weight.value() = golden03::t2({{1.0}});
        layer.W_v.weight.value() = golden03::t2({{3.0}});
        const auto result = attn::ch03::project_and_attend(layer, attn::constant<double>(golden03::t3({{{1.0}}})),
                                                           attn::constant<double>(golden03::t3({{{1.0}, {0.0}}})),
                                                           attn::constant<double>(golden03::t3({{{1.0}, {2.0}}})));
        const double e2 = std::exp(2.0);
        CHECK_ALLCLOSE(result.weights.value(), golden03::t3({{{e2 / (e2 + 1), 1 / (e2 + 1)}}}), 1e-14, 0.0);
        CHECK_ALLCLOSE(result.output.value(), golden03::t3({{{(3 * e2 + 6) / (e2 + 1)}}}), 1e-14, 0.0);
    };
    PROPERTY("it matches PyTorch's output, weights and every gradient") {
        GoldenLayer golden;
        const Var<double> q = attn::parameter<double>(golden03::load("layer_queries"));
        const Var<double> k = attn::parameter<double>(golden03::load("layer_keys"));
        const Var<double> v = attn::parameter<double>(golden03::load("layer_values"));
        const auto result = attn::ch03::project_and_attend(golden.layer, q, k, v, golden.blocked);
        CHECK_ALLCLOSE(result.weights.value(), golden03::load("layer_weights"), 1e-12, 1e-14);
        CHECK_ALLCLOSE(result.output.value(), golden03::load("layer_output"), 1e-12, 1e-14);
        attn::backward(result.output, golden03::load("layer_doutput"));
        CHECK_ALLCLOSE(q.grad(), golden03::load("layer_dqueries"), 1e-10, 1e-12);
        CHECK_ALLCLOSE(k.grad(), golden03::load("layer_dkeys"), 1e-10, 1e-12);
        CHECK_ALLCLOSE(v.grad(), golden03::load("layer_dvalues"), 1e-10, 1e-12);
        CHECK_ALLCLOSE(golden.layer.W_q.weight.grad(), golden03::load("layer_dW_q"), 1e-10, 1e-12);
        CHECK_ALLCLOSE(golden.layer.W_k.weight.grad(), golden03::load("layer_dW_k"), 1e-10, 1e-12);
        CHECK_ALLCLOSE(golden.layer.W_v.weight.grad(), golden03::load("layer_dW_v"), 1e-10, 1e-12);
    };
    PROPERTY("its parameters are named W_q, W_k, W_v and shaped (d_k, query), (d_k, key), (d_v, value)") {
        GoldenLayer golden;
        const auto named = golden.layer.named_parameters();
        REQUIRE(named.size() == 3);
        CHECK(named[0].first == "W_q.weight");
        CHECK(named[2].second.shape() == attn::Shape{2, 4});
    };
}
