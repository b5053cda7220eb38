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

// The entries as one column, (n, 1). (column(A{2.0, 0.5}) is ambiguous to xtensor's constructors.)
A column(A entries) {
    entries.reshape({entries.size(), 1});
    return entries;
}

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

TEST_CASE("reuse: the scalar forms, and down a chain" * doctest::test_suite("common")) {
    const Var<double> a = attn::parameter<double>(A{0.5, -1.0});
    // 1 - relu(2a - 0.5) = 1 - relu((0.5, -2.5)) = (0.5, 1)
    const Var<double> r = attn::relu((a * 2.0) - 0.5);
    const attn::Node<double>& shifted = *r.node()->inputs.at(0);
    const attn::Node<double>& product = *shifted.inputs.at(0);
    CHECK(shifted.value.data() == product.value.data());   // the subtraction wrote over the product
    CHECK(entries_of(r) == product.value.data());          // and relu over both
    const Var<double> y = 1.0 - r;
    CHECK_ALLCLOSE(y.value(), (A{0.5, 1.0}), 0.0, 0.0);
    attn::backward(attn::sum(y));
    CHECK_ALLCLOSE(a.grad(), (A{-2.0, 0.0}), 0.0, 0.0);   // -2 where 2a - 0.5 > 0
}

TEST_CASE("reuse: neg, sqrt, and the output of an op that reads its inputs" * doctest::test_suite("common")) {
    const Var<double> a = attn::parameter<double>(A{{1.0, 4.0}});
    const Var<double> w = attn::parameter<double>(column(A{2.0, 0.5}));

    SUBCASE("relu over matmul's output") {
        const Var<double> y = attn::relu(attn::matmul(w, a));   // (2, 2): (2, 8), (0.5, 2)
        CHECK(input_entries_of(y, 0) == entries_of(y));
        CHECK_ALLCLOSE(y.value(), (A{{2.0, 8.0}, {0.5, 2.0}}), 0.0, 0.0);
        attn::backward(attn::sum(y));
        // matmul's backward reads w and a, which stay: d/da = column sums of w = 2.5 each
        CHECK_ALLCLOSE(a.grad(), (A{{2.5, 2.5}}), 0.0, 0.0);
        CHECK_ALLCLOSE(w.grad(), column(A{5.0, 5.0}), 0.0, 0.0);
    }
    SUBCASE("sqrt and neg") {
        const Var<double> y = -attn::sqrt(a * 4.0);   // -(2, 4)
        const Var<double> root(y.node()->inputs.at(0));  // the sqrt, as the tape keeps it
        CHECK(input_entries_of(root, 0) == entries_of(root));   // sqrt wrote over the product
        CHECK(entries_of(root) != entries_of(y));               // it reads its output: neg allocates
        CHECK_ALLCLOSE(y.value(), (A{{-2.0, -4.0}}), 0.0, 0.0);
        attn::backward(attn::sum(y));
        CHECK_ALLCLOSE(a.grad(), (A{{-1.0, -0.5}}), 0.0, 0.0);   // -d/da 2 sqrt(a) = -1 / sqrt(a)
        const Var<double> z = -(a * 2.0);
        CHECK(input_entries_of(z, 0) == entries_of(z));
        CHECK_ALLCLOSE(z.value(), (A{{-2.0, -8.0}}), 0.0, 0.0);
    }
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

    SUBCASE("exp reads its output") {
        const Var<double> y = attn::tanh(attn::exp(a));
        CHECK(input_entries_of(y, 0) != entries_of(y));
        attn::backward(attn::sum(y));
        // d/da tanh(e^a) = (1 - tanh^2(e^a)) e^a
        CHECK_ALLCLOSE(a.grad(), (A{dtanh(std::exp(0.5)) * std::exp(0.5), dtanh(std::exp(-1.0)) * std::exp(-1.0)}),
                       1e-14, 0.0);
    }
    SUBCASE("div reads its inputs and its output") {
        const Var<double> b = attn::parameter<double>(A{2.0, 4.0});
        const Var<double> y = attn::tanh(a / b);   // a / b = (0.25, -0.25)
        CHECK(input_entries_of(y, 0) != entries_of(y));
        attn::backward(attn::sum(y));
        // d/db tanh(a / b) = -(1 - tanh^2(a / b)) a / b^2
        CHECK_ALLCLOSE(b.grad(), (A{-dtanh(0.25) * 0.5 / 4.0, dtanh(-0.25) * 1.0 / 16.0}), 1e-14, 0.0);
    }
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
    SUBCASE("the temporary has the result's shape, on the left: a bias added over it") {
        const Var<double> y = (m * 2.0) + row;
        CHECK(input_entries_of(y, 0) == entries_of(y));
        CHECK_ALLCLOSE(y.value(), (A{{3.0, 6.0}, {7.0, 10.0}}), 0.0, 0.0);
        attn::backward(attn::sum(y));
        CHECK_ALLCLOSE(row.grad(), (A{2.0, 2.0}), 0.0, 0.0);
        CHECK_ALLCLOSE(m.grad(), (A{{2.0, 2.0}, {2.0, 2.0}}), 0.0, 0.0);
    }
    SUBCASE("on the right, with a broadcast that goes row by row") {
        const Var<double> shift = attn::parameter<double>(column(A{1.0, 2.0}));
        const Var<double> y = shift - (m * 2.0);   // (2, 1) against (2, 2): the general walk
        CHECK(input_entries_of(y, 1) == entries_of(y));
        CHECK_ALLCLOSE(y.value(), (A{{-1.0, -3.0}, {-4.0, -6.0}}), 0.0, 0.0);
        attn::backward(attn::sum(y));
        CHECK_ALLCLOSE(shift.grad(), column(A{2.0, 2.0}), 0.0, 0.0);
        CHECK_ALLCLOSE(m.grad(), (A{{-2.0, -2.0}, {-2.0, -2.0}}), 0.0, 0.0);
    }
}

TEST_CASE("reuse: float, through the vectorized loops" * doctest::test_suite("common")) {
    // 40 entries: a full AVX-512 register of floats twice, and a tail
    xt::xarray<float> values = xt::linspace<float>(-3.0f, 3.0f, 40);
    const Var<float> a = attn::parameter<float>(values);
    const Var<float> b = attn::constant<float>(xt::xarray<float>(values * 0.5f));
    const Var<float> y = attn::sigmoid(attn::tanh(a + b) * 2.0f);
    const attn::Node<float>& product = *y.node()->inputs.at(0);
    const attn::Node<float>& tanh_node = *product.inputs.at(0);
    const attn::Node<float>& sum = *tanh_node.inputs.at(0);
    CHECK(tanh_node.value.data() == sum.value.data());       // tanh wrote over the sum
    CHECK(product.value.data() != tanh_node.value.data());   // tanh reads its output
    CHECK(std::as_const(y).value().data() == product.value.data());   // sigmoid wrote over the product
    for (std::size_t k = 0; k < values.size(); ++k) {
        const double expected = 1.0 / (1.0 + std::exp(-2.0 * std::tanh(1.5 * values(k))));
        CHECK(y.value()(k) == doctest::Approx(expected).epsilon(1e-6));
    }
}

TEST_CASE("reuse: in no-grad mode too, and on empty tensors" * doctest::test_suite("common")) {
    const Var<double> a = attn::constant<double>(A{0.5, -1.0});
    const attn::NoGradGuard no_grad;
    Var<double> doubled = a * 2.0;
    const double* entries = entries_of(doubled);
    const Var<double> y = attn::sigmoid(std::move(doubled));
    CHECK(entries_of(y) == entries);
    CHECK_ALLCLOSE(y.value(), (A{1.0 / (1.0 + std::exp(-1.0)), 1.0 / (1.0 + std::exp(2.0))}), 1e-15, 0.0);
    CHECK_ALLCLOSE(a.value(), (A{0.5, -1.0}), 0.0, 0.0);

    const Var<double> empty = attn::constant<double>(A::from_shape({0}));
    const Var<double> e = attn::tanh(empty * 2.0) + 1.0;
    CHECK(e.shape() == attn::Shape{0});
}
