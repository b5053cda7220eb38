// Views: reshape gives a Var over its input's own entries, as PyTorch's view does. Writing
// through either shows in both, a write through either counts against ops that read the
// other, and the gradient of a view flows to its base. Expected values are worked by hand.
#include "common/autodiff/ops.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/logic_error_of.hpp"

#include <string>
#include <utility>

using attn::Var;
using A = xt::xarray<double>;

namespace {

// Why backward(loss) refuses to run ("" if it runs).
std::string refusal_of(const Var<double>& loss) {
    return support::logic_error_of([&] { attn::backward(loss); });
}

}  // namespace

TEST_CASE("views: reshape shares its input's entries" * doctest::test_suite("common")) {
    Var<double> base = attn::parameter<double>(A{{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}});
    const Var<double> view = attn::reshape(base, {3, 2});
    CHECK(std::as_const(view).value().data() == std::as_const(base).value().data());

    SUBCASE("writing through the view updates its base") {
        Var<double> writable = view;
        writable.value()(2, 0) = -5.0;   // entry 4 of the six
        CHECK_ALLCLOSE(std::as_const(base).value(), (A{{1.0, 2.0, 3.0}, {4.0, -5.0, 6.0}}), 0.0, 0.0);
    }
    SUBCASE("writing the base shows through the view, and a view of a view") {
        const Var<double> flat = attn::reshape(view, {6});
        base.value()(0, 1) = 20.0;
        CHECK(std::as_const(view).value()(0, 1) == 20.0);
        CHECK(std::as_const(flat).value()(1) == 20.0);
    }
    SUBCASE("a copy of a view's value is a copy: writing it leaves the base alone") {
        A copy = std::as_const(view).value();
        copy(0, 0) = 100.0;
        CHECK(std::as_const(base).value()(0, 0) == 1.0);
        CHECK(copy.data() != std::as_const(base).value().data());
    }
    SUBCASE("giving a view's value another size gives it entries of its own") {
        Var<double> writable = view;
        writable.value() = A{7.0, 8.0};
        CHECK_ALLCLOSE(std::as_const(base).value(), (A{{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}}), 0.0, 0.0);
    }
    SUBCASE("the entries live as long as any Var over them") {
        Var<double> survivor;
        {
            const Var<double> short_lived = attn::parameter<double>(A{1.5, 2.5, 3.5, 4.5});
            survivor = attn::reshape(short_lived, {2, 2});
        }
        CHECK_ALLCLOSE(std::as_const(survivor).value(), (A{{1.5, 2.5}, {3.5, 4.5}}), 0.0, 0.0);
    }
}

TEST_CASE("views: the gradient of a view flows to its base" * doctest::test_suite("common")) {
    const Var<double> base = attn::parameter<double>(A{1.0, 2.0, 3.0, 4.0});
    // loss = sum(view * c) with view[i][j] = base[2i + j]:  d loss / d base[2i + j] = c[i][j]
    const Var<double> c = attn::constant<double>(A{{10.0, 20.0}, {30.0, 40.0}});
    const Var<double> view = attn::reshape(base, {2, 2});
    // and a second use of the base through a view of the view: + sum(base)
    const Var<double> loss = attn::sum(view * c) + attn::sum(attn::reshape(view, {4, 1}));
    attn::backward(loss);
    CHECK_ALLCLOSE(base.grad(), (A{11.0, 21.0, 31.0, 41.0}), 0.0, 0.0);
}

TEST_CASE("views: a write through a view or its base counts for both" * doctest::test_suite("common")) {
    // mul's backward reads its inputs: d(x * w)/dw = x.
    const Var<double> w = attn::parameter<double>(A{{2.0, 3.0}});
    Var<double> base = attn::parameter<double>(A{1.0, 2.0});

    SUBCASE("an op read the view, then the base was written") {
        const Var<double> loss = attn::sum(attn::reshape(base, {1, 2}) * w);
        base.value()(0) = 9.0;
        const std::string message = refusal_of(loss);
        INFO(message);
        CHECK(message.find("input 0 of mul (shape (1, 2)) was written in place") != std::string::npos);
    }
    SUBCASE("an op read the base, then it was written through a view") {
        Var<double> view = attn::reshape(base, {1, 2});
        const Var<double> loss = attn::sum(base * attn::reshape(w, {2}));
        view.value()(0, 1) = 9.0;
        const std::string message = refusal_of(loss);
        INFO(message);
        CHECK(message.find("input 0 of mul (shape (2,)) was written in place") != std::string::npos);
    }
    SUBCASE("reading a view through a const Var is not a write") {
        const Var<double> view = attn::reshape(base, {1, 2});
        const Var<double> loss = attn::sum(view * w);
        CHECK(view.value()(0, 0) == 1.0);
        CHECK(refusal_of(loss).empty());
        CHECK_ALLCLOSE(base.grad(), (A{2.0, 3.0}), 0.0, 0.0);
    }
}
