// Self-checks for exercise 02.1: additive_scores (exercises/02_bahdanau_attention/additive_scores.cpp).
#include "chapters/02_bahdanau_attention/additive_scores.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/02_bahdanau_attention/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/property.hpp"

#include <cmath>

using attn::Var;
using A = xt::xarray<double>;

namespace {
// additive_scores of one query q against keys k (both already projected, width 1), w_v = 2.
A scores_by_hand(double q, std::initializer_list<double> k) {
    A keys = A(k);
    keys.reshape({std::size_t(1), k.size(), std::size_t(1)});
    const Var<double> query = attn::constant<double>(A(xt::xtensor<double, 3>{{{q}}}));
    const Var<double> w_v = attn::constant<double>(A(xt::xtensor<double, 2>{{2.0}}));
    const A scores = attn::ch02::additive_scores(query, attn::constant<double>(keys), w_v).value();
    REQUIRE_SHAPE(scores.shape(), {1, 1, k.size()});
    return xt::view(scores, 0, 0, xt::all());
}
}  // namespace

TEST_CASE("02.1 additive_scores" * doctest::test_suite("ch02")) {
    // The hand-worked properties first, each named after the mistake that breaks it
    // (tests/mutants/02_bahdanau_attention/additive_scores.*); the golden table last.
    PROPERTY("the features go through tanh: q = 0, k = 3, w_v = 2 give 2 tanh(3) = 1.99, not 6") {
        CHECK_ALLCLOSE(scores_by_hand(0.0, {3.0}), A({2 * std::tanh(3.0)}), 1e-14, 1e-14);
    };
    PROPERTY("the tanh is taken of the sum q + k, not of q and k apart: q = 0.5, k = (0.25, -0.5) give (2 tanh(0.75), 0)") {
        // 2 tanh(0.75) = 1.27030; tanh(0.5) + tanh(0.25) would give 2 * 0.70697 = 1.41395 instead
        CHECK_ALLCLOSE(scores_by_hand(0.5, {0.25, -0.5}), A({2 * std::tanh(0.75), 0.0}), 1e-14, 1e-14);
    };

    attn::Rng rng(1);
    attn::ch02::AdditiveAttention<double> layer(4, 6, 7, rng);
    golden02::set_weights(layer, "attn_batch_");
    const Var<double> queries_proj = layer.W_q(attn::constant<double>(golden02::load("attn_batch_queries")));
    const Var<double> keys_proj = layer.W_k(attn::constant<double>(golden02::load("attn_batch_keys")));
    const auto scores_of = [&](const Var<double>& keys) {
        const Var<double> scores = attn::ch02::additive_scores(queries_proj, keys, layer.w_v.weight);
        REQUIRE_SHAPE(scores.shape(), {2, 3, 5});
        return A(scores.value());
    };

    PROPERTY("every query is scored against every key: score[b, i, j] uses q_i and k_j") {
        // Moving key 4 of batch 1 changes column 4 of batch 1 only.
        A moved = keys_proj.value();
        xt::view(moved, 1, 4, xt::all()) += 0.3;
        const A difference = xt::abs(scores_of(attn::constant<double>(moved)) - scores_of(keys_proj));
        CHECK(xt::amax(xt::view(difference, 0, xt::all(), xt::all()))() == 0.0);
        CHECK(xt::amax(xt::view(difference, 1, xt::all(), xt::range(0, 4)))() == 0.0);
        CHECK(xt::amin(xt::view(difference, 1, xt::all(), 4))() > 0.0);
    };
    PROPERTY("it matches PyTorch's scores on golden data") {
        CHECK_ALLCLOSE(scores_of(keys_proj), golden02::load("attn_batch_scores"), 1e-12, 1e-12);
    };
    PROPERTY("its gradient matches central differences") {
        const support::GradcheckResult r = support::gradcheck(
            [](const std::vector<Var<double>>& v) { return attn::ch02::additive_scores(v[0], v[1], v[2]); },
            {support::random_array({2, 3, 7}, 5), support::random_array({2, 4, 7}, 6), support::random_array({1, 7}, 7)});
        INFO(r.report);
        CHECK(r.worst_error < 1e-6);
    };
    PROPERTY("mismatched shapes are refused") {
        CHECK_THROWS_AS(attn::ch02::additive_scores(queries_proj, keys_proj, attn::constant<double>(xt::zeros<double>({1, 6}))),
                        std::invalid_argument);
    };
}
