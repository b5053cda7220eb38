// Conv2d: a case worked by hand, PyTorch golden cases (tests/data/common/make_golden.py),
// numerical gradients, the receptive field of a stack, and the shapes it refuses.
#include "common/autodiff/ops.hpp"
#include "common/nn/conv2d.hpp"
#include "tests/common/conv_checks.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/gradients.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>

using attn::Var;
using conv_checks::A;

namespace {

constexpr double chain = 1e-6;         // gradient check of several ops in a row

}  // namespace

TEST_CASE("nn: Conv2d computes a sliding square with zero padding" * doctest::test_suite("common")) {
    attn::Rng rng(3);
    attn::Conv2d<double> conv(1, 1, 3, rng);
    conv.weight.value() = A{{{{0, 1, 0}, {2, 3, 4}, {0, 5, 0}}}};   // (out 1, in 1, 3, 3): a plus sign
    conv.bias.value() = A{0.5};
    A image = A{{1, 2, 3}, {4, 5, 6}};   // 2 x 3 grid, one channel
    image.reshape({1, 2, 3, 1});
    const Var<double> x = attn::constant<double>(image);
    REQUIRE(conv(x).shape() == attn::Shape{1, 2, 3, 1});
    SUBCASE("output (r, c) is 1 above + 2 left + 3 centre + 4 right + 5 below + 0.5, zero beyond the edges") {
        // (0,0): 0 + 0 + 3 + 8 + 20 + .5 = 31.5    (0,1): 0 + 2 + 6 + 12 + 25 + .5 = 45.5
        // (0,2): 0 + 4 + 9 + 0 + 30 + .5 = 43.5    (1,0): 1 + 0 + 12 + 20 + 0 + .5 = 33.5
        // (1,1): 2 + 8 + 15 + 24 + 0 + .5 = 49.5   (1,2): 3 + 10 + 18 + 0 + 0 + .5 = 31.5
        A expected = A{{31.5, 45.5, 43.5}, {33.5, 49.5, 31.5}};
        expected.reshape({1, 2, 3, 1});
        CHECK_ALLCLOSE(conv(x).value(), expected, 0.0, 1e-15);
    }
    SUBCASE("parameters are named and shaped like torch.nn.Conv2d's state_dict") {
        attn::Conv2d<double> wide(4, 6, 5, rng);
        std::vector<std::string> names;
        for (const auto& [name, var] : wide.named_parameters()) names.push_back(name);
        CHECK(names == std::vector<std::string>{"weight", "bias"});
        CHECK(wide.weight.shape() == attn::Shape{6, 4, 5, 5});
        CHECK(wide.bias.shape() == attn::Shape{6});
        // PyTorch's bound 1 / sqrt(in k k) = 1 / sqrt(100) = 0.1
        CHECK(xt::amax(xt::abs(wide.weight.value()))() <= 0.1);
    }
}

TEST_CASE("nn: Conv2d matches PyTorch" * doctest::test_suite("common.golden")) {
    for (const std::string name : {"conv2d_k3", "conv2d_k5"})
        conv_checks::check_against_golden<attn::Conv2d<double>>(name);
}

TEST_CASE("nn: Conv2d's gradients match numerical ones" * doctest::test_suite("common")) {
    for (const std::size_t k : {1, 3, 5}) {
        CAPTURE(k);
        const std::vector<A> inputs{support::random_array({2, 4, 3, 2}, 1), support::random_array({3, 2, k, k}, 2),
                                    support::random_array({3}, 3)};
        const support::GradcheckResult r = support::gradcheck(
            [](const std::vector<Var<double>>& v) {
                return conv_checks::ConvWith<attn::Conv2d<double>>(v[1], v[2]).conv(v[0]);
            },
            inputs);
        INFO(r.report);
        CHECK(r.worst_error < chain);
    }
}

TEST_CASE("nn: after L layers of 3 x 3, output (r, c) depends exactly on the (2L + 1)^2 square around it" *
          doctest::test_suite("common")) {
    constexpr std::size_t side = 8, channels = 2;
    for (const std::size_t layers : {1, 2, 3}) {
        CAPTURE(layers);
        attn::Rng rng(layers);
        std::vector<std::unique_ptr<attn::Conv2d<double>>> stack;
        for (std::size_t l = 0; l < layers; ++l)
            stack.push_back(std::make_unique<attn::Conv2d<double>>(channels, channels, 3, rng));
        const long reach = static_cast<long>(layers);
        for (const auto& [r, c] : std::vector<std::pair<long, long>>{{0, 0}, {3, 4}, {7, 2}, {5, 5}}) {
            CAPTURE(r);
            CAPTURE(c);
            // The gradient of sum_o y[0, r, c, o] with respect to x marks the inputs that output (r, c) reads.
            const Var<double> x = attn::parameter<double>(support::random_array({1, side, side, channels}, 4));
            Var<double> y = x;
            for (const auto& conv : stack) y = (*conv)(y);
            A seed = xt::zeros<double>(y.shape());
            for (std::size_t o = 0; o < channels; ++o) seed(0, r, c, o) = 1.0;
            attn::backward(y, seed);
            std::size_t inside_count = 0;
            for (long i = 0; i < static_cast<long>(side); ++i)
                for (long j = 0; j < static_cast<long>(side); ++j) {
                    const bool inside = std::max(std::labs(i - r), std::labs(j - c)) <= reach;   // Chebyshev distance
                    double influence = 0;
                    for (std::size_t ch = 0; ch < channels; ++ch) influence += std::abs(x.grad()(0, i, j, ch));
                    CAPTURE(i);
                    CAPTURE(j);
                    if (inside) CHECK(influence > 1e-6);
                    else CHECK(influence == 0.0);
                    inside_count += inside;
                }
            // Away from the edges the square is whole: (2L + 1)^2 inputs.
            if (r >= reach && c >= reach && r + reach < static_cast<long>(side) && c + reach < static_cast<long>(side))
                CHECK(inside_count == (2 * layers + 1) * (2 * layers + 1));
        }
    }
}

TEST_CASE("nn: Conv2d refuses shapes it cannot use, in one line" * doctest::test_suite("common")) {
    attn::Rng rng(5);
    const attn::Conv2d<double> conv(3, 4, 3, rng);
    const auto refuses = [&](const attn::Shape& shape) { return conv_checks::refuses(conv, shape, "Conv2d"); };
    SUBCASE("x must be (batch, H, W, in_channels)") {
        CHECK(refuses({5, 5, 3}));           // no batch axis
        CHECK(refuses({2, 5, 5, 4}));        // 4 channels, the layer takes 3
        CHECK(refuses({2, 3, 5, 5}));        // PyTorch's (batch, channels, H, W) order
        CHECK_FALSE(refuses({2, 5, 4, 3}));
    }
    SUBCASE("the kernel size must be odd and the channels positive") {
        CHECK_THROWS_AS(attn::Conv2d<double>(3, 4, 2, rng), std::invalid_argument);
        CHECK_THROWS_AS(attn::Conv2d<double>(3, 4, 0, rng), std::invalid_argument);
        CHECK_THROWS_AS(attn::Conv2d<double>(0, 4, 3, rng), std::invalid_argument);
    }
}
