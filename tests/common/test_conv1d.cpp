// Conv1d: a case worked by hand, PyTorch golden cases (tests/data/common/make_golden.py),
// numerical gradients, the receptive field, and the shapes it refuses.
#include "common/autodiff/ops.hpp"
#include "common/nn/conv1d.hpp"
#include "tests/common/conv_checks.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/gradients.hpp"

#include "common/xtensor_compat.hpp"

#include <cstdlib>

using attn::Var;
using conv_checks::A;

namespace {

constexpr double chain = 1e-6;         // gradient check of several ops in a row

// One sequence of one channel: (1, n, 1).
A sequence(const std::vector<double>& values) {
    A x = xt::adapt(values, {std::size_t(1), values.size(), std::size_t(1)});
    return x;
}

}  // namespace

TEST_CASE("nn: Conv1d computes a sliding window with zero padding" * doctest::test_suite("common")) {
    attn::Rng rng(3);
    attn::Conv1d<double> conv(1, 1, 3, rng);
    conv.weight.value() = A{{{1, 2, 3}}};   // (out 1, in 1, k 3)
    conv.bias.value() = A{0.5};
    const Var<double> x = attn::constant<double>(sequence({1, 2, 3, 4}));   // (1, 4, 1)
    REQUIRE(conv(x).shape() == attn::Shape{1, 4, 1});
    SUBCASE("output i is 1 x[i-1] + 2 x[i] + 3 x[i+1] + 0.5, with x = 0 beyond the ends") {
        // y0 = 0 + 2 + 6 + .5,  y1 = 1 + 4 + 9 + .5,  y2 = 2 + 6 + 12 + .5,  y3 = 3 + 8 + 0 + .5
        CHECK_ALLCLOSE(conv(x).value(), sequence({8.5, 14.5, 20.5, 11.5}), 0.0, 1e-15);
    }
    SUBCASE("parameters are named and shaped like torch.nn.Conv1d's state_dict") {
        attn::Conv1d<double> wide(4, 6, 5, rng);
        std::vector<std::string> names;
        for (const auto& [name, var] : wide.named_parameters()) names.push_back(name);
        CHECK(names == std::vector<std::string>{"weight", "bias"});
        CHECK(wide.weight.shape() == attn::Shape{6, 4, 5});
        CHECK(wide.bias.shape() == attn::Shape{6});
        // PyTorch's bound 1 / sqrt(in k) = 1 / sqrt(20) = 0.2236
        CHECK(xt::amax(xt::abs(wide.weight.value()))() <= 1.0 / std::sqrt(20.0));
    }
}

TEST_CASE("nn: Conv1d matches PyTorch" * doctest::test_suite("common.golden")) {
    for (const std::string name : {"conv1d_k3", "conv1d_k5"})
        conv_checks::check_against_golden<attn::Conv1d<double>>(name);
}

TEST_CASE("nn: Conv1d's gradients match numerical ones" * doctest::test_suite("common")) {
    for (const std::size_t k : {1, 3, 5}) {
        CAPTURE(k);
        const std::vector<A> inputs{support::random_array({2, 7, 3}, 1), support::random_array({4, 3, k}, 2),
                                    support::random_array({4}, 3)};
        const support::GradcheckResult r = support::gradcheck(
            [](const std::vector<Var<double>>& v) {
                return conv_checks::ConvWith<attn::Conv1d<double>>(v[1], v[2]).conv(v[0]);
            },
            inputs);
        INFO(r.report);
        CHECK(r.worst_error < chain);
    }
}

TEST_CASE("nn: Conv1d's output i depends only on inputs within (k - 1) / 2 of i" * doctest::test_suite("common")) {
    constexpr std::size_t n = 9;
    for (const std::size_t k : {3, 5}) {
        CAPTURE(k);
        attn::Rng rng(k);
        const attn::Conv1d<double> conv(2, 3, k, rng);
        const long reach = static_cast<long>(k - 1) / 2;
        for (std::size_t i = 0; i < n; ++i) {
            CAPTURE(i);
            // The gradient of sum_o y[0, i, o] with respect to x marks the inputs that output i reads.
            const Var<double> x = attn::parameter<double>(support::random_array({1, n, 2}, 4));
            A seed = xt::zeros<double>({std::size_t(1), n, std::size_t(3)});
            for (std::size_t o = 0; o < 3; ++o) seed(0, i, o) = 1.0;
            attn::backward(conv(x), seed);
            for (std::size_t j = 0; j < n; ++j) {
                const bool inside = std::labs(static_cast<long>(j) - static_cast<long>(i)) <= reach;
                const double influence = std::abs(x.grad()(0, j, 0)) + std::abs(x.grad()(0, j, 1));
                CAPTURE(j);
                if (inside) CHECK(influence > 1e-6);
                else CHECK(influence == 0.0);
            }
        }
    }
}

TEST_CASE("nn: Conv1d refuses shapes it cannot use, in one line" * doctest::test_suite("common")) {
    attn::Rng rng(5);
    const attn::Conv1d<double> conv(3, 4, 3, rng);
    const auto refuses = [&](const attn::Shape& shape) { return conv_checks::refuses(conv, shape, "Conv1d"); };
    SUBCASE("x must be (batch, n, in_channels)") {
        CHECK(refuses({5, 3}));           // no batch axis
        CHECK(refuses({2, 5, 4}));        // 4 channels, the layer takes 3
        CHECK(refuses({2, 3, 5}));        // PyTorch's (batch, channels, n) order
        CHECK_FALSE(refuses({2, 5, 3}));
    }
    SUBCASE("the kernel size must be odd and the channels positive") {
        CHECK_THROWS_AS(attn::Conv1d<double>(3, 4, 2, rng), std::invalid_argument);
        CHECK_THROWS_AS(attn::Conv1d<double>(3, 4, 0, rng), std::invalid_argument);
        CHECK_THROWS_AS(attn::Conv1d<double>(0, 4, 3, rng), std::invalid_argument);
    }
}
