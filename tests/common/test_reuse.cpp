// Handed-over temporaries: an element-wise op writes its result over the entries of an input
// that nothing else can read again (a temporary, such as the sum in tanh(a + b)), instead of
// into a fresh array. Every case checks that the numbers and the gradients are the ones the
// formulas give, worked by hand, and that a value anyone can still read is never written.
#include "common/autodiff/ops.hpp"
#include "tests/support/check_allclose.hpp"

#include <cmath>
#include <utility>

using attn::Var;
using A = xt::xarray<double>;

namespace {

// Where a Var's entries are, read without counting as a write.
const double* entries_of(const Var<double>& x) { return x.value().data(); }
// The same for the value of the op's input `i` (the tape keeps it).
const double* input_entries_of(const Var<double>& x, std::size_t i) { return x.node()->inputs.at(i)->value.data(); }

double dtanh(double v) { return 1.0 - std::tanh(v) * std::tanh(v); }

}  // namespace

TEST_CASE("reuse: a temporary's entries carry the result" * doctest::test_suite("common")) {
    const Var<double> a = attn::parameter<double>(A{0.5, -1.0});
    const Var<double> b = attn::parameter<double>(A{0.25, 0.5});
    const Var<double> y = attn::tanh(a + b);   // a + b = (0.75, -0.5)
    CHECK(input_entries_of(y, 0) == entries_of(y));
    CHECK_ALLCLOSE(y.value(), (A{std::tanh(0.75), std::tanh(-0.5)}), 1e-15, 0.0);
    attn::backward(attn::sum(y));
    // d/da = d/db = 1 - tanh^2(a + b): tanh's backward reads its own output, not the sum
    CHECK_ALLCLOSE(a.grad(), (A{dtanh(0.75), dtanh(-0.5)}), 1e-15, 0.0);
    CHECK_ALLCLOSE(b.grad(), (A{dtanh(0.75), dtanh(-0.5)}), 1e-15, 0.0);
}

TEST_CASE("reuse: the scalar forms, and a chain of them" * doctest::test_suite("common")) {
    const Var<double> a = attn::parameter<double>(A{0.5, -1.0});
    // 1 - relu(2a - 0.5) = 1 - relu((0.5, -2.5)) = (0.5, 1)
    const Var<double> y = 1.0 - attn::relu(a * 2.0 - 0.5);
    CHECK_ALLCLOSE(y.value(), (A{0.5, 1.0}), 0.0, 0.0);
    attn::backward(attn::sum(y));
    CHECK_ALLCLOSE(a.grad(), (A{-2.0, 0.0}), 0.0, 0.0);   // -2 where 2a - 0.5 > 0
}

TEST_CASE("reuse: a named Var is never written" * doctest::test_suite("common")) {
    const Var<double> a = attn::parameter<double>(A{0.5, -1.0});
    const Var<double> b = attn::parameter<double>(A{0.25, 0.5});
    const Var<double> s = a + b;
    const Var<double> y = attn::tanh(s);
    CHECK(entries_of(y) != entries_of(s));
    CHECK_ALLCLOSE(s.value(), (A{0.75, -0.5}), 0.0, 0.0);
}

TEST_CASE("reuse: an output its own backward reads is kept" * doctest::test_suite("common")) {
    const Var<double> a = attn::parameter<double>(A{0.5, -1.0});
    const Var<double> y = attn::tanh(attn::exp(a));   // exp's backward reads exp(a)
    CHECK(input_entries_of(y, 0) != entries_of(y));
    attn::backward(attn::sum(y));
    // d/da tanh(e^a) = (1 - tanh^2(e^a)) e^a
    CHECK_ALLCLOSE(a.grad(), (A{dtanh(std::exp(0.5)) * std::exp(0.5), dtanh(std::exp(-1.0)) * std::exp(-1.0)}), 1e-14,
                   0.0);
}

TEST_CASE("reuse: a temporary an op has read already is kept" * doctest::test_suite("common")) {
    const Var<double> a = attn::parameter<double>(A{0.5, -1.0});
    const Var<double> b = attn::parameter<double>(A{0.25, 0.5});
    const Var<double> c = attn::parameter<double>(A{3.0, 4.0});
    Var<double> t = a + b;
    const Var<double> u = t * c;                      // mul's backward reads t
    const Var<double> y = attn::tanh(std::move(t));   // handed over, but u holds it too
    CHECK(input_entries_of(y, 0) != entries_of(y));
    attn::backward(attn::sum(u) + attn::sum(y));
    CHECK_ALLCLOSE(c.grad(), (A{0.75, -0.5}), 0.0, 0.0);   // d/dc sum(t c) = t
    CHECK_ALLCLOSE(a.grad(), (A{3.0 + dtanh(0.75), 4.0 + dtanh(-0.5)}), 1e-15, 0.0);
}

TEST_CASE("reuse: entries another array shares are kept" * doctest::test_suite("common")) {
    const Var<double> a = attn::parameter<double>(A{0.5, -1.0});
    const Var<double> b = attn::parameter<double>(A{0.25, 0.5});

    SUBCASE("a view") {
        const Var<double> s = a + b;
        const Var<double> y = attn::tanh(attn::reshape(s, {2, 1}));   // the view is a temporary; s is not
        CHECK_ALLCLOSE(s.value(), (A{0.75, -0.5}), 0.0, 0.0);
        CHECK(y.shape() == attn::Shape{2, 1});
        CHECK(y.value()(1, 0) == doctest::Approx(std::tanh(-0.5)).epsilon(1e-15));
    }
    SUBCASE("an array over the same block, outside any Var") {
        Var<double> t = a + b;
        const A alias = attn::share_storage(std::as_const(t).value(), {2});
        const Var<double> y = attn::tanh(std::move(t));
        CHECK_ALLCLOSE(alias, (A{0.75, -0.5}), 0.0, 0.0);
        CHECK_ALLCLOSE(y.value(), (A{std::tanh(0.75), std::tanh(-0.5)}), 1e-15, 0.0);
    }
}

TEST_CASE("reuse: a binary op writes over the temporary of the result's shape only" * doctest::test_suite("common")) {
    const Var<double> row = attn::parameter<double>(A{1.0, 2.0});
    const Var<double> m = attn::parameter<double>(A{{1.0, 2.0}, {3.0, 4.0}});

    SUBCASE("the temporary is broadcast: a fresh array") {
        const Var<double> y = (row * 2.0) - m;   // (2, 4) repeated over m's rows
        CHECK(input_entries_of(y, 0) != entries_of(y));
        CHECK_ALLCLOSE(y.value(), (A{{1.0, 2.0}, {-1.0, 0.0}}), 0.0, 0.0);
        attn::backward(attn::sum(y));
        CHECK_ALLCLOSE(row.grad(), (A{4.0, 4.0}), 0.0, 0.0);   // 2 per row, two rows
        CHECK_ALLCLOSE(m.grad(), (A{{-1.0, -1.0}, {-1.0, -1.0}}), 0.0, 0.0);
    }
    SUBCASE("the temporary has the result's shape: written over, also on the right") {
        const Var<double> y = row - (m * 2.0);
        CHECK(input_entries_of(y, 1) == entries_of(y));
        CHECK_ALLCLOSE(y.value(), (A{{-1.0, -2.0}, {-5.0, -6.0}}), 0.0, 0.0);
        attn::backward(attn::sum(y));
        CHECK_ALLCLOSE(row.grad(), (A{2.0, 2.0}), 0.0, 0.0);
        CHECK_ALLCLOSE(m.grad(), (A{{-2.0, -2.0}, {-2.0, -2.0}}), 0.0, 0.0);
    }
}

TEST_CASE("reuse: in no-grad mode too" * doctest::test_suite("common")) {
    const Var<double> a = attn::constant<double>(A{0.5, -1.0});
    const attn::NoGradGuard no_grad;
    const Var<double> y = attn::sigmoid(a * 2.0);
    CHECK_ALLCLOSE(y.value(), (A{1.0 / (1.0 + std::exp(-1.0)), 1.0 / (1.0 + std::exp(2.0))}), 1e-15, 0.0);
    CHECK_ALLCLOSE(a.value(), (A{0.5, -1.0}), 0.0, 0.0);
}
