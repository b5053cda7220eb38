// Self-checks for exercise 00.2: softmax_backward (exercises/00_foundations/softmax_backward.cpp).
#include "chapters/00_foundations/softmax.hpp"
#include "chapters/00_foundations/softmax_backward.hpp"
#include "common/random.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradients.hpp"
#include "tests/support/property.hpp"

#include "common/xtensor_compat.hpp"

using attn::Matrix;

namespace {
constexpr double gradcheck_threshold = 1e-7;   // one op, float64, h = 1e-5 (docs/design.md, "Quality bars")
}

TEST_CASE("00.2 softmax_backward" * doctest::test_suite("ch00")) {
    // The hand-worked properties first, each named after the mistake that breaks it
    // (tests/mutants/00_foundations/softmax_backward.*); the golden table last.
    attn::Rng rng(2);
    const Matrix<double> X = rng.normal_matrix<double>(3, 5, 2.0);
    const Matrix<double> dY = rng.normal_matrix<double>(3, 5);    // a random upstream gradient
    const Matrix<double> Y = attn::ch00::softmax(X);

    PROPERTY("each row is its own softmax: the dot product dY . Y runs along a row, rows never mix") {
        const Matrix<double> together = attn::ch00::softmax_backward(Y, dY);
        REQUIRE_SHAPE(together.shape(), {3, 5});
        for (std::size_t i = 0; i < 3; ++i) {
            CAPTURE(i);
            const Matrix<double> alone = attn::ch00::softmax_backward(Matrix<double>(xt::view(Y, xt::range(i, i + 1), xt::all())),
                                                                      Matrix<double>(xt::view(dY, xt::range(i, i + 1), xt::all())));
            CHECK_ALLCLOSE(xt::view(together, i, xt::all()), xt::view(alone, 0, xt::all()), 1e-14, 1e-15);
        }
    };
    PROPERTY("the outer term -(dY . Y) Y is there: a gradient equal for every output of a row gives dX = 0") {
        // The outputs always sum to 1: pushing all of them up at once can change nothing.
        const Matrix<double> flat = {{3.0, 3.0, 3.0, 3.0, 3.0}, {-1.0, -1.0, -1.0, -1.0, -1.0}, {0, 0, 0, 0, 0}};
        CHECK_ALLCLOSE(attn::ch00::softmax_backward(Y, flat), xt::zeros<double>({3, 5}), 0.0, 1e-14);
    };
    PROPERTY("each term is scaled by Y: a row worked by hand, Y = [0.5, 0.5], dY = [1, 0]") {
        // s = 1 * 0.5 + 0 * 0.5 = 0.5;  dX = 0.5 * ([1, 0] - 0.5) = [0.25, -0.25]
        CHECK_ALLCLOSE(attn::ch00::softmax_backward<double>({{0.5, 0.5}}, {{1.0, 0.0}}),
                       Matrix<double>({{0.25, -0.25}}), 1e-15, 1e-15);
    };
    PROPERTY("a second row worked by hand: Y = [0.2, 0.3, 0.5], dY = [1, 2, 3]") {
        // s = 0.2 + 0.6 + 1.5 = 2.3;  dX = [0.2 * -1.3, 0.3 * -0.3, 0.5 * 0.7] = [-0.26, -0.09, 0.35]
        CHECK_ALLCLOSE(attn::ch00::softmax_backward<double>({{0.2, 0.3, 0.5}}, {{1.0, 2.0, 3.0}}),
                       Matrix<double>({{-0.26, -0.09, 0.35}}), 1e-14, 1e-15);
    };
    PROPERTY("each row of dX sums to zero") {
        const Matrix<double> sums = xt::sum(attn::ch00::softmax_backward(Y, dY), {1}, xt::keep_dims);
        CHECK_ALLCLOSE(sums, xt::zeros<double>({3, 1}), 0.0, 1e-14);
    };
    PROPERTY("it matches central differences of sum(softmax(X) * dY)") {
        const auto loss = [&](const xt::xarray<double>& x) {
            const Matrix<double> probabilities = attn::ch00::softmax(Matrix<double>(x));
            const double total = xt::sum(probabilities * dY)();
            return total;
        };
        const Matrix<double> dX = attn::ch00::softmax_backward(Y, dY);
        const xt::xarray<double> numeric = support::numerical_gradient(loss, X, 1e-5);
        const double error = attn::max_relative_error(dX, numeric);
        INFO("relative error " << error);
        CHECK(error < gradcheck_threshold);
    };
    PROPERTY("it matches PyTorch's autograd on golden data") {
        const Matrix<double> golden_Y = xt::load_npy<double>(support::data_path("00_foundations/softmax_Y.npy"));
        const Matrix<double> golden_dY = xt::load_npy<double>(support::data_path("00_foundations/softmax_dY.npy"));
        const Matrix<double> golden_dX = xt::load_npy<double>(support::data_path("00_foundations/softmax_dX.npy"));
        CHECK_ALLCLOSE(attn::ch00::softmax_backward(golden_Y, golden_dY), golden_dX, 1e-10, 1e-14);
    };
    PROPERTY("mismatched shapes are refused") {
        CHECK_THROWS_AS(attn::ch00::softmax_backward(Y, Matrix<double>(xt::zeros<double>({3, 4}))),
                        std::invalid_argument);
    };
}
