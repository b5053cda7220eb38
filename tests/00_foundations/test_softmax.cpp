// Self-checks for exercise 00.1: softmax (exercises/00_foundations/softmax.cpp).
#include "chapters/00_foundations/softmax.hpp"
#include "common/random.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradients.hpp"
#include "tests/support/property.hpp"

#include "common/xtensor_compat.hpp"

using attn::Matrix;

namespace {
constexpr double exact = 1e-12;        // double arithmetic on a few numbers: only rounding
constexpr double float_tol = 1e-6;     // float32 rounding of values <= 1
}

TEST_CASE("00.1 softmax" * doctest::test_suite("ch00")) {
    // The hand-worked properties first, each named after the mistake that breaks it
    // (tests/mutants/00_foundations/softmax.*); the golden table last.
    PROPERTY("each row (not each column) is a probability distribution: positive, summing to 1") {
        attn::Rng rng(1);
        const Matrix<double> Y = attn::ch00::softmax(rng.normal_matrix<double>(4, 6, 3.0));
        REQUIRE_SHAPE(Y.shape(), {4, 6});
        CHECK(xt::all(Y > 0.0));
        const Matrix<double> sums = xt::sum(Y, {1}, xt::keep_dims);
        CHECK_ALLCLOSE(sums, xt::ones<double>({4, 1}), exact, exact);
    };
    PROPERTY("a row worked by hand: softmax([1, 2, 3])") {
        // e^1, e^2, e^3 = 2.71828, 7.38906, 20.08554; their sum is 30.19287
        const Matrix<double> expected = {{2.718281828459045 / 30.19287485057736, 7.38905609893065 / 30.19287485057736,
                                          20.085536923187668 / 30.19287485057736}};
        CHECK_ALLCLOSE(attn::ch00::softmax<double>({{1.0, 2.0, 3.0}}), expected, exact, exact);
    };
    PROPERTY("huge scores give finite probabilities: subtract the row's maximum before exp") {
        // Without subtracting the maximum, exp(1000) is inf and inf / inf is NaN, which
        // CHECK_ALLCLOSE reports as a difference.
        const Matrix<double> P = attn::ch00::softmax<double>({{1000.0, 999.0, 998.0}, {-1000.0, 0.0, 1000.0}});
        // row 0 = softmax([2, 1, 0]) = e^(2,1,0) / (e^2 + e^1 + 1) = [0.66524, 0.24473, 0.09003]
        CHECK_ALLCLOSE(xt::view(P, 0, xt::all()), xt::xarray<double>({0.6652409557748219, 0.24472847105479767,
                                                                      0.09003057317038046}), 1e-12, 1e-15);
        CHECK_ALLCLOSE(xt::view(P, 1, xt::all()), xt::xarray<double>({0.0, 0.0, 1.0}), 0.0, 1e-300);
    };
    PROPERTY("each row subtracts its own maximum, not the whole matrix's") {
        // With one global maximum (1000), the second row would be exp(-2000) / exp(-2000) = 0 / 0.
        const Matrix<double> far_apart = {{1000.0, 1000.0}, {-1000.0, -1000.0}};
        CHECK_ALLCLOSE(attn::ch00::softmax(far_apart), Matrix<double>({{0.5, 0.5}, {0.5, 0.5}}), exact, exact);
    };
    PROPERTY("equal scores share the probability equally") {
        CHECK_ALLCLOSE(attn::ch00::softmax<double>({{0.0, 0.0}, {7.0, 7.0}}),
                       Matrix<double>({{0.5, 0.5}, {0.5, 0.5}}), exact, exact);
    };

    attn::Rng rng(1);
    const Matrix<double> X = rng.normal_matrix<double>(4, 6, 3.0);

    PROPERTY("adding a constant to a row changes nothing") {
        const Matrix<double> shifted = X + 25.0;
        CHECK_ALLCLOSE(attn::ch00::softmax(shifted), attn::ch00::softmax(X), 1e-12, 1e-14);
    };
    PROPERTY("it matches PyTorch's torch.softmax on golden data") {
        const Matrix<double> golden_X = xt::load_npy<double>(support::data_path("00_foundations/softmax_X.npy"));
        const Matrix<double> golden_Y = xt::load_npy<double>(support::data_path("00_foundations/softmax_Y.npy"));
        CHECK_ALLCLOSE(attn::ch00::softmax(golden_X), golden_Y, 1e-10, 1e-15);
    };
    PROPERTY("float32 gives the same probabilities as float64") {
        const Matrix<float> X32 = xt::cast<float>(X);
        CHECK_ALLCLOSE(attn::ch00::softmax(X32), attn::ch00::softmax(X), float_tol, float_tol);
    };
}
