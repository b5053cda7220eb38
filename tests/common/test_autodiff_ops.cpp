// Every elementary op of the autodiff, gradient-checked in float64 against central
// differences (threshold 1e-7 for one op; docs/design.md, "Quality bars").
#include "common/autodiff/kernels.hpp"
#include "common/autodiff/ops.hpp"
#include "common/random.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

using attn::Var;
using support::gradcheck;
using support::random_array;
using Vars = std::vector<Var<double>>;
using A = xt::xarray<double>;

namespace {
constexpr double one_op = 1e-7;    // one op, float64, h = 1e-5
constexpr double chain = 1e-6;     // several ops in a row

// Entries bounded away from zero (for log and division): 0.5 + |N(0, 1)|.
A positive(const std::vector<std::size_t>& shape, std::uint64_t seed) { return 0.5 + xt::abs(random_array(shape, seed)); }

#define CHECK_GRADIENT(f, inputs, threshold)                                  \
    do {                                                                      \
        const support::GradcheckResult r_ = gradcheck((f), (inputs));         \
        INFO(r_.report);                                                      \
        CHECK(r_.worst_error < (threshold));                                  \
    } while (false)
}  // namespace

TEST_CASE("autodiff: matrix products match hand values and numerical gradients" * doctest::test_suite("common")) {
    SUBCASE("a 2x2 product worked by hand") {
        // [[1, 2], [3, 4]] [[5, 6], [7, 8]] = [[19, 22], [43, 50]]
        const Var<double> C = attn::matmul(attn::constant<double>(A{{1, 2}, {3, 4}}), attn::constant<double>(A{{5, 6}, {7, 8}}));
        CHECK_ALLCLOSE(C.value(), A({{19, 22}, {43, 50}}), 0.0, 0.0);
        const Var<double> Ct = attn::matmul(attn::constant<double>(A{{1, 2}, {3, 4}}), attn::constant<double>(A{{5, 6}, {7, 8}}), true, true);
        CHECK_ALLCLOSE(Ct.value(), A({{23, 31}, {34, 46}}), 0.0, 0.0);   // A^T B^T = (B A)^T
    }
    for (const bool ta : {false, true})
        for (const bool tb : {false, true}) {
            CAPTURE(ta);
            CAPTURE(tb);
            const A a = random_array(ta ? std::vector<std::size_t>{4, 3} : std::vector<std::size_t>{3, 4}, 1);
            const A b = random_array(tb ? std::vector<std::size_t>{5, 4} : std::vector<std::size_t>{4, 5}, 2);
            CHECK_GRADIENT([=](const Vars& v) { return attn::matmul(v[0], v[1], ta, tb); }, (std::vector<A>{a, b}), one_op);
            const A ba = random_array(ta ? std::vector<std::size_t>{2, 4, 3} : std::vector<std::size_t>{2, 3, 4}, 3);
            const A bb = random_array(tb ? std::vector<std::size_t>{2, 5, 4} : std::vector<std::size_t>{2, 4, 5}, 4);
            CHECK_GRADIENT([=](const Vars& v) { return attn::bmm(v[0], v[1], ta, tb); }, (std::vector<A>{ba, bb}), one_op);
        }
    SUBCASE("one Var on both sides: X X^T gets both gradients") {
        CHECK_GRADIENT([](const Vars& v) { return attn::matmul(v[0], v[0], false, true); }, (std::vector<A>{random_array({3, 4}, 8)}), one_op);
        CHECK_GRADIENT([](const Vars& v) { return attn::bmm(v[0], v[0], true, false); }, (std::vector<A>{random_array({2, 3, 4}, 9)}), one_op);
    }
    SUBCASE("leading axes of A are rows: (2, 3, 4) times (4, 5)") {
        const std::vector<A> in{random_array({2, 3, 4}, 5), random_array({4, 5}, 6)};
        CHECK(attn::matmul(attn::constant<double>(in[0]), attn::constant<double>(in[1])).shape() == attn::Shape{2, 3, 5});
        CHECK_GRADIENT([](const Vars& v) { return attn::matmul(v[0], v[1]); }, in, one_op);
    }
    SUBCASE("shapes that do not fit are refused") {
        CHECK_THROWS_AS(attn::matmul(attn::constant<double>(random_array({3, 4}, 1)), attn::constant<double>(random_array({3, 4}, 2))),
                        std::invalid_argument);
        CHECK_THROWS_AS(attn::bmm(attn::constant<double>(random_array({2, 3, 4}, 1)), attn::constant<double>(random_array({3, 4, 5}, 2))),
                        std::invalid_argument);
    }
}

TEST_CASE("autodiff: linear is matmul then + bias, in one op" * doctest::test_suite("common")) {
    SUBCASE("numerical gradients, with leading axes") {
        const std::vector<A> in{random_array({2, 3, 4}, 11), random_array({5, 4}, 12), random_array({5}, 13)};
        CHECK_GRADIENT([](const Vars& v) { return attn::linear(v[0], v[1], v[2]); }, in, one_op);
    }
    // Against the unfused ops in float, both for inputs the fused path takes (gemm adds to the
    // bias, in <= 256) and wider ones (two passes): the same values and gradients.
    for (const std::size_t in_features : {std::size_t(64), std::size_t(300)}) {
        CAPTURE(in_features);
        using F = xt::xarray<float>;
        const F x0 = xt::cast<float>(random_array({6, 7, in_features}, 14));
        const F W0 = xt::cast<float>(random_array({9, in_features}, 15));
        const F b0 = xt::cast<float>(random_array({9}, 16));
        const Var<float> upstream = attn::constant<float>(xt::cast<float>(random_array({6, 7, 9}, 17)));
        const auto run = [&](bool fused) {
            std::vector<Var<float>> p{attn::parameter<float>(x0), attn::parameter<float>(W0), attn::parameter<float>(b0)};
            const Var<float> y = fused ? attn::linear(p[0], p[1], p[2]) : attn::matmul(p[0], p[1], false, true) + p[2];
            attn::backward(attn::sum(y * upstream));
            p.insert(p.begin(), y);
            return p;   // y, x, W, b
        };
        const std::vector<Var<float>> fused = run(true), unfused = run(false);
        CHECK_ALLCLOSE(fused[0].value(), unfused[0].value(), 2e-6, 1e-6);   // float rounding at most
        for (std::size_t i = 1; i < 4; ++i) CHECK_ALLCLOSE(fused[i].grad(), unfused[i].grad(), 2e-6, 1e-6);
    }
    SUBCASE("a bias that does not fit the outputs is refused") {
        const Var<double> x = attn::constant<double>(random_array({3, 4}, 1)), W = attn::constant<double>(random_array({5, 4}, 2));
        CHECK_THROWS_AS(attn::linear(x, W, attn::constant<double>(random_array({4}, 3))), std::invalid_argument);
        CHECK_THROWS_AS(attn::linear(x, W, attn::constant<double>(random_array({1, 5}, 3))), std::invalid_argument);
    }
}

TEST_CASE("autodiff: element-wise ops broadcast and differentiate" * doctest::test_suite("common")) {
    const std::vector<std::pair<std::vector<std::size_t>, std::vector<std::size_t>>> shapes = {
        {{3, 4}, {3, 4}}, {{3, 4}, {4}}, {{4}, {3, 4}}, {{3, 1}, {1, 4}}, {{2, 3, 4}, {3, 1}}, {{3, 4}, {1}}};
    for (const auto& [sa, sb] : shapes) {
        CAPTURE(attn::shape_string(sa));
        CAPTURE(attn::shape_string(sb));
        const std::vector<A> in{random_array(sa, 7), positive(sb, 8)};
        CHECK_GRADIENT([](const Vars& v) { return v[0] + v[1]; }, in, one_op);
        CHECK_GRADIENT([](const Vars& v) { return v[0] - v[1]; }, in, one_op);
        CHECK_GRADIENT([](const Vars& v) { return v[0] * v[1]; }, in, one_op);
        CHECK_GRADIENT([](const Vars& v) { return v[0] / v[1]; }, in, one_op);
    }
    SUBCASE("one side a constant: only the other receives a gradient") {
        // The backward passes hand the output's gradient over to an input, or compute an input's
        // gradient in its buffer, once the other input has read it; with one side a constant
        // (whether it is the full-shaped side or the broadcast one) only one gradient is computed.
        for (const auto& [sa, sb] : shapes) {
            CAPTURE(attn::shape_string(sa));
            CAPTURE(attn::shape_string(sb));
            const Var<double> c = attn::constant<double>(positive(sb, 14));
            const std::vector<A> in{positive(sa, 15)};
            CHECK_GRADIENT([c](const Vars& v) { return v[0] + c; }, in, one_op);
            CHECK_GRADIENT([c](const Vars& v) { return c - v[0]; }, in, one_op);
            CHECK_GRADIENT([c](const Vars& v) { return c * v[0]; }, in, one_op);
            CHECK_GRADIENT([c](const Vars& v) { return v[0] / c; }, in, one_op);
            CHECK_GRADIENT([c](const Vars& v) { return c / v[0]; }, in, one_op);
        }
    }
    SUBCASE("one Var on both sides, worked by hand") {
        // d(x + x) = 2, d(x - x) = 0, d(x * x) = 2x, d(x / x) = 1/x - x/x^2 = 0, each the sum of two shares
        const Var<double> x = attn::parameter<double>(A{2.0, -0.5});
        attn::backward(attn::sum((x + x) + (x - x) + (x * x) + (x / x)));
        CHECK_ALLCLOSE(x.grad(), A({2.0 + 4.0, 2.0 - 1.0}), 0.0, 1e-15);
    }
    SUBCASE("broadcast values worked by hand") {
        // [[1], [2]] + [10, 20, 30] = [[11, 21, 31], [12, 22, 32]]
        const Var<double> sum = attn::constant<double>(A(xt::xtensor<double, 2>{{1.0}, {2.0}})) + attn::constant<double>(A{10, 20, 30});
        CHECK_ALLCLOSE(sum.value(), A({{11, 21, 31}, {12, 22, 32}}), 0.0, 0.0);
        CHECK_THROWS_AS(attn::constant<double>(A{1, 2}) + attn::constant<double>(A{1, 2, 3}), std::invalid_argument);
    }
    SUBCASE("scalar forms and negation") {
        const std::vector<A> in{random_array({3, 4}, 9)};
        CHECK_GRADIENT([](const Vars& v) { return 1.0 - 2.0 * v[0] / 4.0 + 3.0; }, in, chain);
        CHECK_GRADIENT([](const Vars& v) { return -v[0]; }, in, one_op);
        CHECK_ALLCLOSE((1.0 - attn::constant<double>(A{0.25, 2})).value(), A({0.75, -1}), 0.0, 0.0);
    }
    SUBCASE("unary functions") {
        const std::vector<A> in{random_array({3, 5}, 10)};
        CHECK_GRADIENT([](const Vars& v) { return attn::tanh(v[0]); }, in, one_op);
        CHECK_GRADIENT([](const Vars& v) { return attn::sigmoid(v[0]); }, in, one_op);
        CHECK_GRADIENT([](const Vars& v) { return attn::relu(v[0]); }, in, one_op);
        CHECK_GRADIENT([](const Vars& v) { return attn::exp(v[0]); }, in, one_op);
        CHECK_GRADIENT([](const Vars& v) { return attn::log(v[0]); }, (std::vector<A>{positive({3, 5}, 11)}), one_op);
        CHECK_GRADIENT([](const Vars& v) { return attn::sqrt(v[0]); }, (std::vector<A>{positive({3, 5}, 12)}), one_op);
        CHECK_ALLCLOSE(attn::sqrt(attn::constant<double>(A{4, 0.25})).value(), A({2, 0.5}), 0.0, 0.0);
        // sigmoid(0) = 0.5, relu(-1) = 0, sigmoid of -800 is 0 and not NaN
        CHECK_ALLCLOSE(attn::sigmoid(attn::constant<double>(A{0, -800, 800})).value(), A({0.5, 0, 1}), 0.0, 1e-300);
        CHECK_ALLCLOSE(attn::relu(attn::constant<double>(A{-1, 2})).value(), A({0, 2}), 0.0, 0.0);
    }
}

TEST_CASE("autodiff: reductions" * doctest::test_suite("common")) {
    const std::vector<A> in{random_array({2, 3, 4}, 12)};
    for (std::size_t axis = 0; axis < 3; ++axis)
        for (const bool keep : {false, true}) {
            CAPTURE(axis);
            CAPTURE(keep);
            CHECK_GRADIENT([=](const Vars& v) { return attn::sum(v[0], axis, keep); }, in, one_op);
            CHECK_GRADIENT([=](const Vars& v) { return attn::mean(v[0], axis, keep); }, in, one_op);
            CHECK_GRADIENT([=](const Vars& v) { return attn::max(v[0], axis, keep); }, in, one_op);
        }
    CHECK_GRADIENT([](const Vars& v) { return attn::sum(v[0]); }, in, one_op);
    CHECK_GRADIENT([](const Vars& v) { return attn::mean(v[0]); }, in, one_op);
    SUBCASE("values worked by hand") {
        const Var<double> x = attn::constant<double>(A{{1, 5, 2}, {7, 0, 3}});
        CHECK_ALLCLOSE(attn::sum(x, 1).value(), A({8, 10}), 0.0, 0.0);
        CHECK_ALLCLOSE(attn::mean(x, 0, true).value(), A({{4, 2.5, 2.5}}), 0.0, 0.0);
        CHECK_ALLCLOSE(attn::max(x, 1).value(), A({5, 7}), 0.0, 0.0);
        CHECK(attn::mean(x).item() == doctest::Approx(3.0));
        CHECK_THROWS_AS(attn::sum(x, 2), std::invalid_argument);
    }
}

TEST_CASE("autodiff: shape ops" * doctest::test_suite("common")) {
    const std::vector<A> in{random_array({2, 3, 4}, 13)};
    CHECK_GRADIENT([](const Vars& v) { return attn::reshape(v[0], {6, 4}); }, in, one_op);
    CHECK_GRADIENT([](const Vars& v) { return attn::permute(v[0], {2, 0, 1}); }, in, one_op);
    CHECK_GRADIENT([](const Vars& v) { return attn::transpose(v[0], 1, 2); }, in, one_op);
    CHECK_GRADIENT([](const Vars& v) { return attn::slice(v[0], 1, 1, 3); }, in, one_op);
    CHECK_GRADIENT([](const Vars& v) { return attn::index_select(v[0], 2, {3, 0, 3, 1}); }, in, one_op);
    CHECK_GRADIENT([](const Vars& v) { return attn::split(v[0], {1, 3}, 2)[1] * 2.0; }, in, one_op);
    CHECK_GRADIENT(
        [](const Vars& v) { return attn::concat<double>({v[0], v[1], v[0]}, 1); },
        (std::vector<A>{random_array({2, 3, 4}, 14), random_array({2, 1, 4}, 15)}), one_op);
    CHECK_GRADIENT([](const Vars& v) { return attn::stack<double>({v[0], v[1] * 3.0, v[0]}, 1); },
                   (std::vector<A>{random_array({2, 4}, 25), random_array({2, 4}, 26)}), one_op);
    CHECK_GRADIENT([](const Vars& v) { return attn::select(v[0], 1, 2) * attn::select(v[0], 1, 0); }, in, one_op);
    CHECK_GRADIENT([](const Vars& v) { return attn::expand(v[0], {2, 3, 4}); }, (std::vector<A>{random_array({2, 1, 4}, 27)}), one_op);
    SUBCASE("values worked by hand") {
        const Var<double> x = attn::constant<double>(A{{1, 2, 3}, {4, 5, 6}});
        CHECK_ALLCLOSE(attn::stack<double>({x, x}, 2).value(), A({{{1, 1}, {2, 2}, {3, 3}}, {{4, 4}, {5, 5}, {6, 6}}}), 0.0, 0.0);
        CHECK_ALLCLOSE(attn::expand(attn::constant<double>(A{7, 8}), {2, 2}).value(), A({{7, 8}, {7, 8}}), 0.0, 0.0);
        CHECK_THROWS_AS(attn::expand(x, {3, 3}), std::invalid_argument);
        CHECK_ALLCLOSE(attn::select(x, 1, 2).value(), A({3, 6}), 0.0, 0.0);
        CHECK_ALLCLOSE(attn::select(x, 0, 1).value(), A({4, 5, 6}), 0.0, 0.0);
        CHECK_THROWS_AS(attn::select(x, 1, 3), std::invalid_argument);
        CHECK_ALLCLOSE(attn::transpose(x, 0, 1).value(), A({{1, 4}, {2, 5}, {3, 6}}), 0.0, 0.0);
        CHECK_ALLCLOSE(attn::slice(x, 1, 1, 3).value(), A({{2, 3}, {5, 6}}), 0.0, 0.0);
        CHECK_ALLCLOSE(attn::index_select(x, 0, {1, 1}).value(), A({{4, 5, 6}, {4, 5, 6}}), 0.0, 0.0);
        CHECK_ALLCLOSE(attn::concat<double>({x, x}, 0).value(), A({{1, 2, 3}, {4, 5, 6}, {1, 2, 3}, {4, 5, 6}}), 0.0, 0.0);
        // An empty part (a key/value cache before its first position) adds nothing.
        const Var<double> none = attn::constant<double>(A::from_shape({2, 0}));
        CHECK_ALLCLOSE(attn::concat<double>({none, x}, 1).value(), x.value(), 0.0, 0.0);
        CHECK(attn::index_select(attn::constant<double>(A::from_shape({2, 0, 3})), 0, {1, 1, 0}).shape() ==
              attn::Shape{3, 0, 3});
        CHECK_ALLCLOSE(attn::reshape(x, {3, 2}).value(), A({{1, 2}, {3, 4}, {5, 6}}), 0.0, 0.0);
        CHECK_THROWS_AS(attn::reshape(x, {4, 2}), std::invalid_argument);
        CHECK_THROWS_AS(attn::slice(x, 1, 2, 4), std::invalid_argument);
        CHECK_THROWS_AS(attn::permute(x, {0, 0}), std::invalid_argument);
    }
}

// The copy kernels behind permute and the axis sums, against xtensor's own transpose and sums
// on random data, at the shapes attention uses and at awkward ones (unit axes, sizes that are
// not multiples of the tile or of the vector width).
TEST_CASE("autodiff: permute agrees with xtensor's transpose" * doctest::test_suite("common")) {
    SUBCASE("splitting and merging heads: (batch, n, heads, d_h) <-> (batch, heads, n, d_h)") {
        const A x = random_array({2, 7, 4, 8}, 40);
        const Var<double> heads = attn::permute(attn::constant<double>(x), {0, 2, 1, 3});
        CHECK_ALLCLOSE(heads.value(), A(xt::transpose(x, {0, 2, 1, 3})), 0.0, 0.0);
        CHECK_ALLCLOSE(attn::permute(heads, {0, 2, 1, 3}).value(), x, 0.0, 0.0);
        const xt::xarray<float> xf = xt::cast<float>(random_array({3, 5, 2, 16}, 41));
        CHECK_ALLCLOSE(attn::transpose(attn::constant<float>(xf), 1, 2).value(), A(xt::transpose(xf, {0, 2, 1, 3})), 0.0, 0.0);
        CHECK_GRADIENT([](const Vars& v) { return attn::permute(v[0], {0, 2, 1, 3}); },
                       (std::vector<A>{random_array({2, 5, 3, 4}, 42)}), one_op);
    }
    SUBCASE("every order of four axes, one of them of length 1, two longer than a tile") {
        const A x = random_array({3, 1, 17, 20}, 43);
        std::vector<std::size_t> order{0, 1, 2, 3};
        do {
            CAPTURE(attn::shape_string(order));
            CHECK_ALLCLOSE(attn::permute(attn::constant<double>(x), order).value(), A(xt::transpose(x, order)), 0.0, 0.0);
        } while (std::next_permutation(order.begin(), order.end()));
    }
    SUBCASE("transposing the last two axes (k^T), forward and backward") {
        const A x = random_array({2, 33, 18}, 44);
        CHECK_ALLCLOSE(attn::transpose(attn::constant<double>(x), 1, 2).value(), A(xt::transpose(x, {0, 2, 1})), 0.0, 0.0);
        CHECK_GRADIENT([](const Vars& v) { return attn::transpose(v[0], 1, 2) * 2.0; }, (std::vector<A>{x}), chain);
    }
}

TEST_CASE("autodiff: sums and means over an axis agree with xtensor's" * doctest::test_suite("common")) {
    const A x = random_array({3, 21, 13}, 45);   // 21 and 13: neither a multiple of 8
    const xt::xarray<float> xf = xt::cast<float>(x);
    for (std::size_t axis = 0; axis < 3; ++axis) {
        CAPTURE(axis);
        CHECK_ALLCLOSE(attn::sum(attn::constant<double>(x), axis).value(), A(xt::sum(x, {axis})), 1e-14, 1e-14);
        CHECK_ALLCLOSE(attn::mean(attn::constant<double>(x), axis, true).value(), A(xt::mean(x, {axis}, xt::keep_dims)),
                       1e-14, 1e-14);
        CHECK_ALLCLOSE(attn::mean(attn::constant<float>(xf), axis).value(), A(xt::mean(x, {axis})), 1e-5, 1e-6);
        // two reductions of the same input: the second one adds to the gradient the first wrote
        CHECK_GRADIENT([=](const Vars& v) { return attn::sum(v[0], axis, true) * attn::mean(v[0], axis, true); },
                       (std::vector<A>{x}), chain);
    }
}

TEST_CASE("autodiff: embedding, dropout, log-softmax and cross-entropy" * doctest::test_suite("common")) {
    SUBCASE("embedding rows and their gradients (repeated ids add up)") {
        const xt::xarray<std::int64_t> ids = {{1, 4, 1}, {0, 2, 1}};
        CHECK_GRADIENT([&](const Vars& v) { return attn::embedding(v[0], ids); }, (std::vector<A>{random_array({5, 3}, 16)}), one_op);
        const Var<double> W = attn::constant<double>(A{{0, 0}, {1, 2}, {3, 4}});
        CHECK_ALLCLOSE(attn::embedding(W, xt::xarray<std::int64_t>{2, 1}).value(), A({{3, 4}, {1, 2}}), 0.0, 0.0);
        CHECK_THROWS_AS(attn::embedding(W, xt::xarray<std::int64_t>{3}), std::invalid_argument);
    }
    SUBCASE("dropout keeps the expected value and passes gradients through its mask") {
        CHECK_GRADIENT([](const Vars& v) { attn::Rng rng(5); return attn::dropout(v[0], 0.3, true, rng); },
                       (std::vector<A>{random_array({4, 6}, 17)}), one_op);
        attn::Rng rng(6);
        const Var<double> ones = attn::constant<double>(xt::ones<double>({200, 100}));
        const Var<double> dropped = attn::dropout(ones, 0.25, true, rng);
        const double zeros = xt::sum(xt::equal(dropped.value(), 0.0))();
        // 20000 draws with p = 0.25: 5000 zeros expected, standard deviation 61
        CHECK(std::abs(zeros - 5000) < 300);
        CHECK(attn::mean(dropped).item() == doctest::Approx(1.0).epsilon(0.02));
        CHECK(attn::dropout(ones, 0.25, false, rng).node() == ones.node());   // evaluation: unchanged
    }
    SUBCASE("log_softmax") {
        CHECK_GRADIENT([](const Vars& v) { return attn::log_softmax(v[0]); }, (std::vector<A>{random_array({2, 3, 5}, 18, 3.0)}), one_op);
        // log softmax([0, ln 3]) = [ln 1/4, ln 3/4]; huge inputs stay finite
        CHECK_ALLCLOSE(attn::log_softmax(attn::constant<double>(A{0, std::log(3.0)})).value(), A({std::log(0.25), std::log(0.75)}), 1e-15, 1e-15);
        CHECK(xt::all(xt::isfinite(attn::log_softmax(attn::constant<double>(A{1000, -1000, 0})).value())));
    }
    SUBCASE("cross_entropy with ignored padding and label smoothing") {
        const xt::xarray<std::int64_t> targets = {{2, 0, 1}, {3, 0, 0}};   // 0 is padding here
        for (const double smoothing : {0.0, 0.1})
            for (const attn::Reduction reduction : {attn::Reduction::mean, attn::Reduction::sum}) {
                CAPTURE(smoothing);
                CHECK_GRADIENT([&](const Vars& v) { return attn::cross_entropy(v[0], targets, 0, smoothing, reduction); },
                               (std::vector<A>{random_array({2, 3, 4}, 19, 2.0)}), one_op);
            }
        // Uniform logits over 4 classes: every counted position costs ln 4, with or without smoothing.
        const Var<double> flat = attn::constant<double>(xt::zeros<double>({2, 3, 4}));
        CHECK(attn::cross_entropy(flat, targets, 0).item() == doctest::Approx(std::log(4.0)));
        CHECK(attn::cross_entropy(flat, targets, 0, 0.1, attn::Reduction::sum).item() == doctest::Approx(3 * std::log(4.0)));
        CHECK(attn::cross_entropy(flat, xt::xarray<std::int64_t>(xt::zeros<std::int64_t>({2, 3})), 0).item() == 0.0);
        CHECK_THROWS_AS(attn::cross_entropy(flat, xt::xarray<std::int64_t>{{5, 1, 1}, {1, 1, 1}}, 0), std::invalid_argument);
        CHECK_THROWS_AS(attn::cross_entropy(flat, xt::xarray<std::int64_t>{1, 2}, 0), std::invalid_argument);
    }
}

namespace {
// Equal bit for bit (so -0 differs from +0, and a NaN equals the same NaN).
template <class T>
bool same_bits(const xt::xarray<T>& a, const xt::xarray<T>& b) {
    return a.shape() == b.shape() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}
}  // namespace

TEST_CASE("kernels: row_sums adds each row left to right, eight rows side by side or alone" * doctest::test_suite("common")) {
    // Row r is 1e8, r + 1, -1e8, then ones: from the left, 1e8 + (r + 1) rounds back to 1e8
    // in float (its spacing there is 8) for r < 3, so those rows' sums are the ones' count
    // alone; any other order keeps some of r + 1. 19 rows: two blocks of eight and a tail.
    const std::size_t rows = 19, n = 11;
    std::vector<float> x(rows * n, 1.0f);
    std::vector<float> expected(rows);
    for (std::size_t r = 0; r < rows; ++r) {
        x[r * n] = 1e8f;
        x[r * n + 1] = static_cast<float>(r + 1);
        x[r * n + 2] = -1e8f;
        float total = 0;
        for (std::size_t j = 0; j < n; ++j) total += x[r * n + j];
        expected[r] = total;
    }
    CHECK(expected[0] == 8.0f);   // the 1 was lost against 1e8; the eight ones remain
    std::vector<float> totals(rows);
    attn::kernels::row_sums(x.data(), rows, n, totals.data());
    for (std::size_t r = 0; r < rows; ++r) {
        CAPTURE(r);
        CHECK(totals[r] == expected[r]);
    }
}

TEST_CASE("autodiff: the loss adds each row left to right, as a plain loop does, bit for bit" * doctest::test_suite("common")) {
    // 19 rows of 37 classes: the row sums run eight rows side by side (two blocks) and then a
    // tail of three; every row must still be added in its own order, so the float results
    // equal these plain loops exactly: the loss, its gradient, and log_softmax both ways.
    using F = xt::xarray<float>;
    const std::size_t rows = 19, classes = 37;
    const F logits = xt::cast<float>(random_array({rows, classes}, 41, 3.0));
    xt::xarray<std::int64_t> targets = xt::zeros<std::int64_t>({rows});
    for (std::size_t r = 0; r < rows; ++r) targets(r) = static_cast<std::int64_t>((5 * r + 2) % classes);
    targets(4) = -1;   // ignored
    F shifted = F::from_shape({rows, classes});
    for (std::size_t r = 0; r < rows; ++r) {
        float m = logits(r, 0);
        for (std::size_t c = 1; c < classes; ++c) m = std::max(m, logits(r, c));
        for (std::size_t c = 0; c < classes; ++c) shifted(r, c) = logits(r, c) - m;
    }
    const F e = xt::exp(shifted);   // the same exponentials as the op's
    F log_p = F::from_shape({rows, classes}), p = F::from_shape({rows, classes});
    for (std::size_t r = 0; r < rows; ++r) {
        float total = 0;
        for (std::size_t c = 0; c < classes; ++c) total += e(r, c);
        for (std::size_t c = 0; c < classes; ++c) {
            log_p(r, c) = shifted(r, c) - std::log(total);
            p(r, c) = e(r, c) * (1.0f / total);
        }
    }
    for (const float smoothing : {0.0f, 0.1f}) {
        CAPTURE(smoothing);
        const float uniform = smoothing / static_cast<float>(classes), on_target = 1 - smoothing;
        float total = 0;
        std::size_t counted = 0;
        for (std::size_t r = 0; r < rows; ++r) {
            if (targets(r) == -1) continue;
            float row_sum = 0;
            for (std::size_t c = 0; c < classes; ++c) row_sum += log_p(r, c);
            const float on_target_term = on_target * log_p(r, static_cast<std::size_t>(targets(r)));
            total -= smoothing > 0 ? on_target_term + uniform * row_sum : on_target_term;
            ++counted;
        }
        const float scale = 1.0f / static_cast<float>(counted);
        const Var<float> x = attn::parameter<float>(logits);
        const Var<float> loss = attn::cross_entropy(x, targets, -1, smoothing);
        CHECK(loss.item() == total * scale);
        attn::backward(loss);
        F expected_grad = F::from_shape({rows, classes});
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t c = 0; c < classes; ++c) {
                const bool ignored = targets(r) == -1;
                const float q = uniform + (static_cast<std::int64_t>(c) == targets(r) ? on_target : 0.0f);
                expected_grad(r, c) = ignored ? 0.0f : scale * (p(r, c) - q);
            }
        CHECK(same_bits(x.grad(), expected_grad));
    }
    const Var<float> x = attn::parameter<float>(logits);
    const Var<float> y = attn::log_softmax(x);
    CHECK(same_bits(y.value(), log_p));
    const F weights = xt::cast<float>(random_array({rows, classes}, 42, 1.0));
    attn::backward(attn::sum(y * attn::constant<float>(weights)));   // dy = weights
    F expected_grad = F::from_shape({rows, classes});
    for (std::size_t r = 0; r < rows; ++r) {
        float total = 0;
        for (std::size_t c = 0; c < classes; ++c) total += weights(r, c);
        for (std::size_t c = 0; c < classes; ++c) expected_grad(r, c) = weights(r, c) - p(r, c) * total;
    }
    CHECK(same_bits(x.grad(), expected_grad));
}

TEST_CASE("autodiff: a logit of -inf costs nothing without label smoothing" * doctest::test_suite("common")) {
    // Class 2 can never be predicted; the loss of target 0 stays finite, as in PyTorch. (With
    // smoothing, every class gets some target weight, and log 0 = -inf makes the loss inf.)
    const float inf = std::numeric_limits<float>::infinity();
    const Var<float> logits = attn::constant<float>(xt::xarray<float>{{1.0f, 0.0f, -inf}});
    const float loss = attn::cross_entropy(logits, xt::xarray<std::int64_t>{0}, -1).item();
    CHECK(loss == doctest::Approx(std::log(1.0 + std::exp(-1.0))));
    CHECK(std::isinf(attn::cross_entropy(logits, xt::xarray<std::int64_t>{0}, -1, 0.1).item()));
}

TEST_CASE("autodiff: the tape" * doctest::test_suite("common")) {
    SUBCASE("a Var used twice gets both gradients: d(x * x)/dx = 2x") {
        const Var<double> x = attn::parameter<double>(A{3.0, -1.0});
        attn::backward(attn::sum(x * x));
        CHECK_ALLCLOSE(x.grad(), A({6.0, -2.0}), 0.0, 0.0);
    }
    SUBCASE("gradients accumulate over backward calls until zero_grad") {
        const Var<double> x = attn::parameter<double>(A{1.0});
        attn::backward(attn::sum(x * 3.0));
        attn::backward(attn::sum(x * 3.0));
        CHECK(x.grad()(0) == 6.0);
        x.zero_grad();
        CHECK_FALSE(x.has_grad());
    }
    SUBCASE("a chain of ops: a small two-layer network") {
        CHECK_GRADIENT([](const Vars& v) { return attn::tanh(attn::matmul(attn::relu(attn::matmul(v[0], v[1]) + v[2]), v[3])); },
                       (std::vector<A>{random_array({4, 3}, 20), random_array({3, 5}, 21), random_array({5}, 22), random_array({5, 2}, 23)}),
                       chain);
    }
    SUBCASE("nothing is recorded in no-grad mode") {
        const Var<double> w = attn::parameter<double>(A{1.0, 2.0});
        const attn::NoGradGuard no_grad;
        const Var<double> y = w * 2.0;
        CHECK_FALSE(y.requires_grad());
        CHECK_THROWS_AS(attn::backward(attn::sum(y)), std::invalid_argument);
    }
    SUBCASE("backward needs a single number unless given a seed") {
        const Var<double> w = attn::parameter<double>(A{1.0, 2.0});
        CHECK_THROWS_AS(attn::backward(w * 2.0), std::invalid_argument);
        attn::backward(w * 2.0, A{1.0, 10.0});
        CHECK_ALLCLOSE(w.grad(), A({2.0, 20.0}), 0.0, 0.0);
    }
    SUBCASE("custom_op: a cube with a hand-written backward") {
        const auto cube = [](const Var<double>& x) {
            const A y = x.value() * x.value() * x.value();
            return attn::custom_op<double>("cube", y, {x}, [](const attn::SavedValues<double>& saved, const A& dy) {
                const A& x0 = saved.input(0);
                return std::vector<A>{A(3.0 * x0 * x0 * dy)};   // y = x^3: dx = 3 x^2 dy
            });
        };
        CHECK_GRADIENT([&](const Vars& v) { return cube(v[0]); }, (std::vector<A>{random_array({3, 2}, 24)}), one_op);
        const auto wrong_shape = [](const Var<double>& x) {
            return attn::custom_op<double>("bad", x.value(), {x}, [](const attn::SavedValues<double>&, const A&) {
                return std::vector<A>{A{1.0}};
            });
        };
        const Var<double> p = attn::parameter<double>(A{{1.0, 2.0}});
        CHECK_THROWS_AS(attn::backward(attn::sum(wrong_shape(p))), std::logic_error);
    }
    SUBCASE("custom_op: backward reads the saved output, which is the Var's own value") {
        const A* seen = nullptr;
        const auto exp_op = [&seen](const Var<double>& x) {
            return attn::custom_op<double>("exp", A(xt::exp(x.value())), {x},
                                           [&seen](const attn::SavedValues<double>& saved, const A& dy) {
                                               seen = &saved.output();
                                               return std::vector<A>{A(saved.output() * dy)};   // y = e^x: dx = y dy
                                           });
        };
        CHECK_GRADIENT([&](const Vars& v) { return exp_op(v[0]); }, (std::vector<A>{random_array({2, 3}, 25)}), one_op);
        const Var<double> p = attn::parameter<double>(A{0.5, -1.0});
        const Var<double> y = exp_op(p);
        attn::backward(attn::sum(y));
        CHECK(seen == &y.value());   // no copy was made for backward
        CHECK_ALLCLOSE(p.grad(), A(xt::exp(p.value())), 1e-15, 0.0);
    }
}
