// The tape refuses, as PyTorch does, the two backward passes that would silently give wrong
// gradients: one through a graph an earlier backward freed, and one that would read a value
// written in place after its op used it. Expected gradients are worked by hand.
#include "common/autodiff/ops.hpp"
#include "common/nn/optim.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/logic_error_of.hpp"

#include <string>

using attn::Var;
using A = xt::xarray<double>;

namespace {

using support::logic_error_of;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("autodiff: backward through a freed graph is refused" * doctest::test_suite("common")) {
    const Var<double> x = attn::parameter<double>(A{1.0, -2.0});
    const Var<double> h = attn::tanh(x);

    SUBCASE("the same loss twice") {
        const Var<double> loss = attn::sum(h * 2.0);
        attn::backward(loss);
        const A first = x.grad();
        const std::string message = logic_error_of([&] { attn::backward(loss); });
        INFO(message);
        CHECK(contains(message, "freed by an earlier backward"));
        CHECK(contains(message, "attn::Graph::retain"));
        CHECK(message.find('\n') == std::string::npos);
        CHECK_ALLCLOSE(x.grad(), first, 0.0, 0.0);   // nothing was added before the refusal
    }
    SUBCASE("a second loss that reuses a part the first backward freed") {
        attn::backward(attn::sum(h * 2.0));
        const std::string message = logic_error_of([&] { attn::backward(attn::sum(h * 3.0)); });
        INFO(message);
        CHECK(contains(message, "the graph through tanh was freed"));
    }
    SUBCASE("a retained graph gives the same gradients again, which accumulate") {
        // loss = sum((3 x)^2) = 9 sum(x^2):  dloss/dx = 18 x, twice 36 x
        const Var<double> scaled = x * 3.0;
        const Var<double> loss = attn::sum(scaled * scaled);
        attn::backward(loss, attn::Graph::retain);
        CHECK_ALLCLOSE(x.grad(), A({18.0, -36.0}), 1e-15, 0.0);
        attn::backward(loss, attn::Graph::retain);
        CHECK_ALLCLOSE(x.grad(), A({36.0, -72.0}), 1e-15, 0.0);
        attn::backward(loss);   // the default frees it
        CHECK_ALLCLOSE(x.grad(), A({54.0, -108.0}), 1e-15, 0.0);
        CHECK_THROWS_AS(attn::backward(loss), std::logic_error);
    }
    SUBCASE("a fresh forward pass records a new graph") {
        attn::backward(attn::sum(attn::tanh(x)));
        x.zero_grad();
        attn::backward(attn::sum(attn::tanh(x)));
        // d tanh(x) / dx = 1 - tanh(x)^2
        CHECK_ALLCLOSE(x.grad(), A(1.0 - xt::square(xt::tanh(x.value()))), 1e-15, 0.0);
    }
}

TEST_CASE("autodiff: a value written in place after an op read it is refused" * doctest::test_suite("common")) {
    SUBCASE("tanh's backward reads its output") {
        const Var<double> x = attn::parameter<double>(A{0.5, -1.0});
        Var<double> y = attn::tanh(x);
        const Var<double> loss = attn::sum(y);
        y.value()(0) = 0.0;
        const std::string message = logic_error_of([&] { attn::backward(loss); });
        INFO(message);
        CHECK(contains(message, "the output of tanh (shape (2,)) was written in place"));
        CHECK(message.find('\n') == std::string::npos);
        CHECK_FALSE(x.has_grad());   // refused before any gradient was written
    }
    SUBCASE("matmul's backward reads its inputs") {
        const Var<double> X = attn::parameter<double>(A{{1.0, 2.0}});
        Var<double> W = attn::parameter<double>(A(xt::xtensor<double, 2>{{3.0}, {4.0}}));
        const Var<double> loss = attn::sum(attn::matmul(X, W));
        W.value()(0, 0) += 1.0;
        const std::string message = logic_error_of([&] { attn::backward(loss); });
        INFO(message);
        CHECK(contains(message, "input 1 of matmul (shape (2, 1)) was written in place"));
    }
    SUBCASE("a custom op may read anything it saved, so all of it is checked") {
        Var<double> x = attn::parameter<double>(A{2.0});
        const Var<double> cube = attn::custom_op<double>(
            "cube", A(x.value() * x.value() * x.value()), {x},
            [](const attn::SavedValues<double>& saved, const A& dy) {
                return std::vector<A>{A(3.0 * saved.input(0) * saved.input(0) * dy)};   // y = x^3: dx = 3 x^2 dy
            });
        x.value()(0) = 5.0;
        CHECK(contains(logic_error_of([&] { attn::backward(attn::sum(cube)); }), "input 0 of cube"));
    }
    SUBCASE("an op recorded without saying what its backward reads is checked on everything") {
        Var<double> x = attn::parameter<double>(A{2.0});
        const auto twice = [](attn::Node<double>& self) {
            attn::accumulate_grad(*self.inputs[0], A(2.0 * self.grad));   // y = 2 x: dx = 2 dy
        };
        const Var<double> doubled = attn::record_op<double>("double", A(2.0 * x.value()), {x}, twice);
        x.value()(0) = 5.0;
        CHECK(contains(logic_error_of([&] { attn::backward(attn::sum(doubled)); }), "input 0 of double"));
    }
    SUBCASE("an op whose backward does not read the value lets it change, as in PyTorch") {
        // out = a + b:  da = db = dout, whatever a and b hold
        const Var<double> a = attn::parameter<double>(A{1.0, 2.0});
        Var<double> b = attn::parameter<double>(A{3.0, 4.0});
        const Var<double> loss = attn::sum(a + b);
        b.value() = A{30.0, 40.0};
        attn::backward(loss);
        CHECK_ALLCLOSE(a.grad(), A({1.0, 1.0}), 0.0, 0.0);
        CHECK_ALLCLOSE(b.grad(), A({1.0, 1.0}), 0.0, 0.0);
    }
    SUBCASE("reading through a const Var is not a write") {
        const Var<double> x = attn::parameter<double>(A{0.5});
        Var<double> y = attn::tanh(x);
        const Var<double> loss = attn::sum(y);
        const Var<double>& read_only = y;
        CHECK(read_only.value()(0) == doctest::Approx(std::tanh(0.5)));
        attn::backward(loss);
        CHECK(x.grad()(0) == doctest::Approx(1.0 - std::tanh(0.5) * std::tanh(0.5)));
    }
    SUBCASE("a retained graph is checked again: PyTorch refuses it too") {
        Var<double> w = attn::parameter<double>(A{1.0});
        const Var<double> loss = attn::sum(w * w);
        attn::backward(loss, attn::Graph::retain);
        w.value()(0) = 2.0;
        CHECK(contains(logic_error_of([&] { attn::backward(loss); }), "input 0 of mul"));
    }
}

TEST_CASE("autodiff: the training loop writes parameters in place legally" * doctest::test_suite("common")) {
    // loss = sum(w * w):  dloss/dw = 2 w, so an SGD step with lr 0.1 gives w <- 0.8 w.
    const Var<double> w = attn::parameter<double>(A{1.0, -0.5});
    attn::SGD<double> sgd({w}, 0.1);
    for (int step = 0; step < 3; ++step) {   // forward, backward, step, next forward
        const Var<double> loss = attn::sum(w * w);
        sgd.zero_grad();
        attn::backward(loss);
        sgd.step();
    }
    CHECK_ALLCLOSE(w.value(), A({0.512, -0.256}), 1e-15, 0.0);   // 0.8^3 w

    SUBCASE("Adam too") {
        attn::Adam<double> adam({w}, 0.01);
        for (int step = 0; step < 3; ++step) {
            const Var<double> loss = attn::sum(w * w);
            adam.zero_grad();
            attn::backward(loss);
            adam.step();
        }
        CHECK(adam.steps_taken() == 3);
    }
    SUBCASE("but a step between a forward pass and its backward is refused") {
        const Var<double> loss = attn::sum(w * w);
        sgd.step();   // uses the gradients of the last step, and writes w in place
        const std::string message = logic_error_of([&] { attn::backward(loss); });
        INFO(message);
        CHECK(contains(message, "input 0 of mul"));
    }
}
