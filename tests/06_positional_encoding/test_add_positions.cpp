// Self-checks for exercise 06.3: add_positions (exercises/06_positional_encoding/add_positions.cpp).
#include "chapters/06_positional_encoding/add_positions.hpp"
#include "chapters/04_self_attention/self_attention.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/06_positional_encoding/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/property.hpp"

#include <cmath>

using attn::Var;
using A = xt::xarray<double>;
using attn::ch06::add_positions;

TEST_CASE("06.3 add_positions" * doctest::test_suite("ch06")) {
    PROPERTY("d 2, X = [[1 2], [3 4]]: [[sqrt2, 2 sqrt2 + 1], [3 sqrt2 + sin 1, 4 sqrt2 + cos 1]]") {
        // The embeddings are scaled by sqrt(d) = sqrt(2); P[0] = [0, 1], P[1] = [sin 1, cos 1].
        const double s = std::sqrt(2.0);
        const Var<double> out = add_positions(attn::constant<double>(golden03::t3({{{1, 2}, {3, 4}}})));
        REQUIRE_SHAPE(out.shape(), {1, 2, 2});
        const A expected = golden03::t3({{{s, 2 * s + 1}, {3 * s + std::sin(1.0), 4 * s + std::cos(1.0)}}});
        CHECK_ALLCLOSE(out.value(), expected, 1e-15, 1e-15);
    };
    PROPERTY("zero embeddings give the table itself: the scale is on X, not on P") {
        const Var<double> out = add_positions(attn::constant<double>(A(xt::zeros<double>({1, 6, 16}))));
        REQUIRE_SHAPE(out.shape(), {1, 6, 16});
        const A table = golden06::load("pe_n50_d16");
        CHECK_ALLCLOSE(xt::view(out.value(), 0), xt::view(table, xt::range(0, 6), xt::all()), 0.0, 1e-12);
    };
    PROPERTY("every batch entry gets the same positions: out[0] - out[1] = sqrt(d) (X[0] - X[1])") {
        const A X = support::random_array({2, 7, 6}, 11);
        const A out = add_positions(attn::constant<double>(X)).value();
        REQUIRE_SHAPE(out.shape(), {2, 7, 6});
        CHECK_ALLCLOSE(xt::view(out, 0) - xt::view(out, 1), std::sqrt(6.0) * (xt::view(X, 0) - xt::view(X, 1)), 1e-13,
                       1e-13);
    };
    PROPERTY("it matches PyTorch: sqrt(8) X + P[0:5] for a random (2, 5, 8) X") {
        const Var<double> out = add_positions(attn::constant<double>(golden06::load("ap_X")));
        REQUIRE_SHAPE(out.shape(), {2, 5, 8});
        CHECK_ALLCLOSE(out.value(), golden06::load("ap_output"), 1e-13, 1e-13);
    };
    PROPERTY("the gradient reaches X, as sqrt(d) times the upstream one, and matches central differences") {
        const Var<double> X = attn::parameter<double>(support::random_array({2, 3, 4}, 12));
        const A upstream = support::random_array({2, 3, 4}, 13);
        attn::backward(add_positions(X), upstream);
        CHECK_ALLCLOSE(X.grad(), 2.0 * upstream, 1e-14, 1e-14);
        const support::GradcheckResult check = support::gradcheck(
            [](const std::vector<Var<double>>& in) { return add_positions(in[0]); }, {support::random_array({2, 3, 4}, 14)});
        CHECK_MESSAGE(check.worst_error < 1e-7, check.report);
    };
    PROPERTY("self-attention only permutes its outputs when the words are permuted; with positions added it does not") {
        // Chapter 04's self-attention is permutation-equivariant: reorder the words and the
        // outputs are reordered, nothing else. Positions added to the embeddings break this.
        attn::Rng rng(5);
        const std::size_t n = 5, d = 8;
        const attn::ch03::AttentionLayer<double> layer({d, d, d, d, d}, rng);
        A X = rng.normal_matrix<double>(n, d, 1.0 / std::sqrt(static_cast<double>(d)));
        X.reshape({1, n, d});
        const std::vector<std::size_t> order = {4, 1, 2, 3, 0};   // the first and the last word swap
        const A X_swapped = xt::view(X, xt::all(), xt::keep(order), xt::all());
        const auto attend = [&](const Var<double>& x) {
            return attn::ch04::self_attention(layer, x, attn::ch04::full_lengths(1, n)).output.value();
        };
        const auto reorder = [&](const A& out) { return A(xt::view(out, xt::all(), xt::keep(order), xt::all())); };
        // Without positions: the swapped sentence's outputs are the original ones, swapped.
        CHECK_ALLCLOSE(attend(attn::constant<double>(X_swapped)), reorder(attend(attn::constant<double>(X))), 1e-12,
                       1e-14);
        // With positions: they differ.
        const A with = reorder(attend(add_positions(attn::constant<double>(X))));
        const A with_swapped = attend(add_positions(attn::constant<double>(X_swapped)));
        REQUIRE_SHAPE(with.shape(), {1, n, d});
        REQUIRE_SHAPE(with_swapped.shape(), {1, n, d});
        const double difference = xt::amax(xt::abs(with - with_swapped))();
        CHECK_MESSAGE(difference > 0.05, "largest difference with positions: " << difference);
    };
    PROPERTY("an X that is not (batch, n, d) with d even is refused") {
        CHECK_THROWS_AS(add_positions(attn::constant<double>(A(xt::zeros<double>({2, 3, 5})))), std::invalid_argument);
        CHECK_THROWS_AS(add_positions(attn::constant<double>(A(xt::zeros<double>({3, 4})))), std::invalid_argument);
    };
}
