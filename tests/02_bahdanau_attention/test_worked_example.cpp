// The worked example of the chapter 02 lesson ("A worked example: three keys"), computed by
// the chapter's additive attention (2.2)-(2.4). The expected values are the lesson's hand
// derivation; the test also checks the rounded numbers the lesson prints.
#include "chapters/02_bahdanau_attention/additive_attention.hpp"
#include "tests/support/check_allclose.hpp"

#include <cmath>

using attn::Var;
using A = xt::xarray<double>;

namespace {

// The lesson's numbers: H = 2, D = 1; keys and values h_1 = (1, 0), h_2 = (0, 1), h_3 = (1, 1);
// W_k = (1, -1), W_q = (0.5, 0.5), w_v = 2, query s = (1, 1).
attn::ch02::AttentionOutput<double> worked_example(std::int64_t valid_len) {
    attn::Rng rng(0);
    attn::ch02::AdditiveAttention<double> layer(2, 2, 1, rng);
    layer.W_k.weight.value() = A{{1.0, -1.0}};
    layer.W_q.weight.value() = A{{0.5, 0.5}};
    layer.w_v.weight.value() = 2.0 * xt::ones<double>({1, 1});
    const Var<double> states = attn::constant<double>(A{{{1.0, 0.0}, {0.0, 1.0}, {1.0, 1.0}}});   // (1, 3, 2)
    const Var<double> query = attn::constant<double>(A{{{1.0, 1.0}}});                          // (1, 1, 2)
    return attn::ch02::additive_attention(query, layer.project_keys(states), states, xt::xarray<std::int64_t>{valid_len},
                                          layer);
}

}  // namespace

TEST_CASE("02 worked example: three keys, by hand" * doctest::test_suite("ch02")) {
    // k = W_k h = (1, -1, 0); W_q s = 1; e_j = 2 tanh(1 + k_j) = (2 tanh 2, 0, 2 tanh 1)
    const double e1 = 2 * std::tanh(2.0), e2 = 0.0, e3 = 2 * std::tanh(1.0);
    const double total = std::exp(e1) + std::exp(e2) + std::exp(e3);
    const A alpha = {std::exp(e1) / total, std::exp(e2) / total, std::exp(e3) / total};
    const A context = {alpha(0) + alpha(2), alpha(1) + alpha(2)};   // alpha_1 h_1 + alpha_2 h_2 + alpha_3 h_3

    const attn::ch02::AttentionOutput<double> all = worked_example(3);
    CHECK_ALLCLOSE(xt::flatten(all.weights.value()), alpha, 1e-14, 1e-14);
    CHECK_ALLCLOSE(xt::flatten(all.context.value()), context, 1e-14, 1e-14);

    SUBCASE("the rounded numbers printed in the lesson") {
        CHECK_ALLCLOSE((A{e1, e2, e3}), (A{1.9281, 0.0, 1.5232}), 0.0, 5e-5);
        CHECK_ALLCLOSE((A{std::exp(e1), std::exp(e3), total, std::exp(e1) + std::exp(e2)}),
                       (A{6.876, 4.587, 12.463, 7.876}), 0.0, 5e-4);
        CHECK_ALLCLOSE(alpha, (A{0.5517, 0.0802, 0.3680}), 0.0, 5e-5);
        CHECK_ALLCLOSE(context, (A{0.9198, 0.4483}), 0.0, 5e-5);
    }
    SUBCASE("with L = 2 the third key is padding: weight 0, and the first two share 1") {
        const double a1 = std::exp(e1) / (std::exp(e1) + std::exp(e2));
        const attn::ch02::AttentionOutput<double> masked = worked_example(2);
        CHECK_ALLCLOSE(xt::flatten(masked.weights.value()), (A{a1, 1 - a1, 0.0}), 1e-14, 1e-14);
        CHECK_ALLCLOSE(xt::flatten(masked.context.value()), (A{a1, 1 - a1}), 1e-14, 1e-14);
        CHECK_ALLCLOSE((A{a1, 1 - a1}), (A{0.8730, 0.1270}), 0.0, 5e-5);
    }
}
