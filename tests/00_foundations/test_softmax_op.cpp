// Chapter 00's softmax registered as a differentiable op: gradient-checked, and equal to
// exp(log_softmax) from the toolkit, which is computed independently.
#include "chapters/00_foundations/softmax_op.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"

TEST_CASE("ch00 softmax op: the differentiable softmax later chapters use" * doctest::test_suite("ch00")) {
    const xt::xarray<double> scores = support::random_array({2, 3, 5}, 31, 2.0);
    const attn::Var<double> weights = attn::ch00::softmax(attn::constant<double>(scores));
    REQUIRE(weights.shape() == attn::Shape{2, 3, 5});

    SUBCASE("it equals exp(log_softmax(x)) over the last axis") {
        const xt::xarray<double> expected = xt::exp(attn::log_softmax(attn::constant<double>(scores)).value());
        CHECK_ALLCLOSE(weights.value(), expected, 1e-14, 1e-15);
    }
    SUBCASE("its gradient matches central differences") {
        const support::GradcheckResult r =
            support::gradcheck([](const std::vector<attn::Var<double>>& v) { return attn::ch00::softmax(v[0]); }, {scores});
        INFO(r.report);
        CHECK(r.worst_error < 1e-7);
    }
    SUBCASE("inside a chain: softmax(x W) feeding a sum of logs") {
        const support::GradcheckResult r = support::gradcheck(
            [](const std::vector<attn::Var<double>>& v) { return attn::log(attn::ch00::softmax(attn::matmul(v[0], v[1]))); },
            {support::random_array({4, 3}, 32), support::random_array({3, 6}, 33)});
        INFO(r.report);
        CHECK(r.worst_error < 1e-6);
    }
}
