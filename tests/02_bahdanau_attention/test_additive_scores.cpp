// Self-checks for exercise 02.1: additive_scores (exercises/02_bahdanau_attention/additive_scores.cpp).
#include "chapters/02_bahdanau_attention/additive_scores.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/02_bahdanau_attention/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"

using attn::Var;
using A = xt::xarray<double>;

TEST_CASE("02.1 additive_scores" * doctest::test_suite("ch02")) {
    attn::Rng rng(1);
    attn::ch02::AdditiveAttention<double> layer(4, 6, 7, rng);
    golden02::set_weights(layer, "attn_batch_");
    const Var<double> queries_proj = layer.W_q(attn::constant<double>(golden02::load("attn_batch_queries")));
    const Var<double> keys_proj = layer.W_k(attn::constant<double>(golden02::load("attn_batch_keys")));
    const Var<double> scores = attn::ch02::additive_scores(queries_proj, keys_proj, layer.w_v.weight);
    REQUIRE(scores.shape() == attn::Shape{2, 3, 5});

    SUBCASE("it matches PyTorch's scores on golden data") {
        CHECK_ALLCLOSE(scores.value(), golden02::load("attn_batch_scores"), 1e-12, 1e-12);
    }
    SUBCASE("a case worked by hand: one query, two keys, h = 1") {
        // q = 0.5, k = (0.25, -0.5), w_v = 2:  2 tanh(0.75) = 1.27030, 2 tanh(0) = 0
        const Var<double> q = attn::constant<double>(A(xt::xtensor<double, 3>{{{0.5}}}));
        const Var<double> k = attn::constant<double>(A(xt::xtensor<double, 3>{{{0.25}, {-0.5}}}));
        const Var<double> w = attn::constant<double>(A(xt::xtensor<double, 2>{{2.0}}));
        CHECK_ALLCLOSE(attn::ch02::additive_scores(q, k, w).value(),
                       A(xt::xtensor<double, 3>{{{2 * std::tanh(0.75), 0.0}}}), 1e-14, 1e-14);
    }
    SUBCASE("every query is scored against every key: score[b, i, j] uses q_i and k_j") {
        // Moving key 4 of batch 1 changes column 4 of batch 1 only.
        A moved = keys_proj.value();
        xt::view(moved, 1, 4, xt::all()) += 0.3;
        const A changed = attn::ch02::additive_scores(queries_proj, attn::constant<double>(moved), layer.w_v.weight).value();
        const A difference = xt::abs(changed - scores.value());
        CHECK(xt::amax(xt::view(difference, 0, xt::all(), xt::all()))() == 0.0);
        CHECK(xt::amax(xt::view(difference, 1, xt::all(), xt::range(0, 4)))() == 0.0);
        CHECK(xt::amin(xt::view(difference, 1, xt::all(), 4))() > 0.0);
    }
    SUBCASE("its gradient matches central differences") {
        const support::GradcheckResult r = support::gradcheck(
            [](const std::vector<Var<double>>& v) { return attn::ch02::additive_scores(v[0], v[1], v[2]); },
            {support::random_array({2, 3, 7}, 5), support::random_array({2, 4, 7}, 6), support::random_array({1, 7}, 7)});
        INFO(r.report);
        CHECK(r.worst_error < 1e-6);
    }
    SUBCASE("mismatched shapes are refused") {
        CHECK_THROWS_AS(attn::ch02::additive_scores(queries_proj, keys_proj, attn::constant<double>(xt::zeros<double>({1, 6}))),
                        std::invalid_argument);
    }
}
