// Self-checks for exercise 03.1: gaussian_kernel_pooling
// (exercises/03_queries_keys_values/gaussian_kernel_pooling.cpp).
#include "chapters/03_queries_keys_values/gaussian_kernel_pooling.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/03_queries_keys_values/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/property.hpp"

#include <cmath>

using attn::Var;
using A = xt::xarray<double>;

namespace {
attn::ch03::Attention<double> pool(const A& queries, const A& keys, const A& values, double width, bool leave_one_out) {
    return attn::ch03::gaussian_kernel_pooling(attn::constant<double>(queries), attn::constant<double>(keys),
                                               attn::constant<double>(values), attn::constant<double>(A{width}),
                                               leave_one_out);
}
}  // namespace

TEST_CASE("03.1 gaussian_kernel_pooling" * doctest::test_suite("ch03")) {
    PROPERTY("the nearest key gets the most weight, and a larger w makes the kernel narrower") {
        const A keys = {0.0, 1.0, 2.0, 3.0}, values = {1.0, 2.0, 3.0, 4.0};
        const A wide = pool(A{1.2}, keys, values, 0.5, false).weights.value();
        const A narrow = pool(A{1.2}, keys, values, 3.0, false).weights.value();
        CHECK(xt::argmax(xt::view(wide, 0, xt::all()))() == 1);
        CHECK(narrow(0, 1) > wide(0, 1));
        CHECK(narrow(0, 3) < wide(0, 3));
    };
    PROPERTY("w multiplies the distance before it is squared: keys 0 and 1 from x = 0 with w = 3 score 0 and -4.5") {
        const A weights = pool(A{0.0}, A{0.0, 1.0}, A{5.0, 7.0}, 3.0, false).weights.value();
        const double z = 1 + std::exp(-4.5);
        CHECK_ALLCLOSE(weights, golden03::t2({{1 / z, std::exp(-4.5) / z}}), 1e-14, 0.0);
    };
    PROPERTY("a case worked by hand: keys 0, 1, 2 seen from x = 0 with w = 2") {
        // scores -((0 - x_i) * 2)^2 / 2 = 0, -2, -8: the nearest key scores highest
        const auto result = pool(A{0.0}, A{0.0, 1.0, 2.0}, A{0.0, 1.0, 4.0}, 2.0, false);
        const double z = 1 + std::exp(-2.0) + std::exp(-8.0);
        const A weights = {{1 / z, std::exp(-2.0) / z, std::exp(-8.0) / z}};
        CHECK_ALLCLOSE(result.weights.value(), weights, 1e-14, 0.0);
        CHECK_ALLCLOSE(result.output.value(), A{(std::exp(-2.0) + 4 * std::exp(-8.0)) / z}, 1e-14, 0.0);
    };
    PROPERTY("leave-one-out: each training point gives itself exactly zero weight") {
        const A keys = golden03::load("nw_keys");
        const A weights = pool(keys, keys, golden03::load("nw_values"), 1.7, true).weights.value();
        for (std::size_t i = 0; i < keys.size(); ++i) CHECK(weights(i, i) == 0.0);
        CHECK_ALLCLOSE(xt::sum(weights, {1}), xt::ones<double>({keys.size()}), 1e-12, 1e-12);
    };
    PROPERTY("it matches PyTorch's weights, output and gradients (width included)") {
        const Var<double> q = attn::parameter<double>(golden03::load("nw_queries"));
        const Var<double> k = attn::parameter<double>(golden03::load("nw_keys"));
        const Var<double> v = attn::parameter<double>(golden03::load("nw_values"));
        const Var<double> w = attn::parameter<double>(golden03::load("nw_width"));
        const auto result = attn::ch03::gaussian_kernel_pooling(q, k, v, w, false);
        CHECK_ALLCLOSE(result.weights.value(), golden03::load("nw_weights"), 1e-12, 1e-14);
        CHECK_ALLCLOSE(result.output.value(), golden03::load("nw_output"), 1e-12, 1e-14);
        attn::backward(result.output, golden03::load("nw_doutput"));
        CHECK_ALLCLOSE(w.grad(), golden03::load("nw_dwidth"), 1e-10, 1e-12);
        CHECK_ALLCLOSE(q.grad(), golden03::load("nw_dqueries"), 1e-10, 1e-12);
        CHECK_ALLCLOSE(k.grad(), golden03::load("nw_dkeys"), 1e-10, 1e-12);
        CHECK_ALLCLOSE(v.grad(), golden03::load("nw_dvalues"), 1e-10, 1e-12);
    };
    PROPERTY("leave-one-out matches PyTorch, and the width's gradient too") {
        const A keys = golden03::load("nw_keys");
        const Var<double> w = attn::parameter<double>(golden03::load("nw_width"));
        const auto result = attn::ch03::gaussian_kernel_pooling(attn::constant<double>(keys), attn::constant<double>(keys),
                                                                attn::constant<double>(golden03::load("nw_values")), w, true);
        CHECK_ALLCLOSE(result.weights.value(), golden03::load("nw_loo_weights"), 1e-12, 1e-14);
        CHECK_ALLCLOSE(result.output.value(), golden03::load("nw_loo_output"), 1e-12, 1e-14);
        attn::backward(result.output, golden03::load("nw_loo_doutput"));
        CHECK_ALLCLOSE(w.grad(), golden03::load("nw_loo_dwidth"), 1e-10, 1e-12);
    };
    PROPERTY("shapes that do not fit are refused") {
        CHECK_THROWS_AS(pool(A{0.0}, A{0.0, 1.0}, A{0.0}, 1.0, false), std::invalid_argument);
        CHECK_THROWS_AS(pool(A{0.0}, A{0.0, 1.0}, A{0.0, 1.0}, 1.0, true), std::invalid_argument);
    };
}
