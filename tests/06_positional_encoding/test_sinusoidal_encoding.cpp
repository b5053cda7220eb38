// Self-checks for exercise 06.1: sinusoidal_encoding (exercises/06_positional_encoding/sinusoidal_encoding.cpp).
#include "chapters/06_positional_encoding/sinusoidal_encoding.hpp"
#include "tests/06_positional_encoding/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/property.hpp"

#include <cmath>
#include <string>

using A = xt::xarray<double>;
using attn::ch06::sinusoidal_encoding;

TEST_CASE("06.1 sinusoidal_encoding" * doctest::test_suite("ch06")) {
    PROPERTY("position 0 is [0 1 0 1 ...]: every sine column is 0, every cosine column 1") {
        // Positions count from 0, and the even columns are the sines.
        const A P = sinusoidal_encoding<double>(3, 8);
        REQUIRE_SHAPE(P.shape(), {3, 8});
        A position_1 = xt::zeros<double>({8});
        for (std::size_t j = 0; j < 4; ++j) {
            position_1(2 * j) = std::sin(golden06::frequency(j, 8));
            position_1(2 * j + 1) = std::cos(golden06::frequency(j, 8));
        }
        CHECK_MESSAGE(!xt::allclose(xt::view(P, 0, xt::all()), position_1, 1e-9, 1e-9),
                      "row 0 holds the code of position 1: positions count from 0, so row i is position i");
        CHECK_ALLCLOSE(xt::view(P, 0, xt::all()), A({0, 1, 0, 1, 0, 1, 0, 1}), 0.0, 0.0);
    };
    PROPERTY("d 4, position 1: [sin 1, cos 1, sin 0.01, cos 0.01] (w_0 = 1, w_1 = 1 / 10000^(2/4))") {
        // Pair 1's exponent is 2j / d = 2/4: the frequency 1/100, for its sine and its cosine alike.
        const A P = sinusoidal_encoding<double>(2, 4);
        REQUIRE_SHAPE(P.shape(), {2, 4});
        const A expected = {std::sin(1.0), std::cos(1.0), std::sin(0.01), std::cos(0.01)};
        CHECK_ALLCLOSE(xt::view(P, 1, xt::all()), expected, 1e-15, 1e-15);
    };
    PROPERTY("each pair (sine, cosine) is a point of the unit circle: P[i, 2j]^2 + P[i, 2j + 1]^2 = 1") {
        const A P = sinusoidal_encoding<double>(40, 12);
        REQUIRE_SHAPE(P.shape(), {40, 12});
        const A sines = xt::view(P, xt::all(), xt::range(0, 12, 2));
        const A cosines = xt::view(P, xt::all(), xt::range(1, 12, 2));
        CHECK_ALLCLOSE(sines * sines + cosines * cosines, A(xt::ones<double>({40, 6})), 1e-14, 1e-14);
    };
    PROPERTY("P_i . P_k depends only on i - k: it is sum_j cos((i - k) w_j) for every pair of positions") {
        // sin a sin b + cos a cos b = cos(a - b), pair by pair: the similarity of two codes
        // knows how far apart they are, not where they are.
        const std::size_t n = 60, d = 16;
        const A P = sinusoidal_encoding<double>(n, d);
        REQUIRE_SHAPE(P.shape(), {n, d});
        double worst = 0;
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t k = 0; k < n; ++k) {
                double expected = 0;
                const double offset = static_cast<double>(i) - static_cast<double>(k);
                for (std::size_t j = 0; j < d / 2; ++j) expected += std::cos(offset * golden06::frequency(j, d));
                const double dot = xt::sum(xt::view(P, i, xt::all()) * xt::view(P, k, xt::all()))();
                worst = std::max(worst, std::abs(dot - expected));
            }
        CHECK_MESSAGE(worst < 1e-12, "largest |P_i . P_k - sum_j cos((i - k) w_j)| = " << worst);
    };
    PROPERTY("it matches PyTorch's tutorial table (float64) to 1e-12 for (n, d) = (4, 2), (50, 16), (32, 512)") {
        for (const auto& [n, d] : {std::pair<std::size_t, std::size_t>{4, 2}, {50, 16}, {32, 512}}) {
            INFO("n " << n << ", d " << d);
            const A P = sinusoidal_encoding<double>(n, d);
            REQUIRE_SHAPE(P.shape(), {n, d});
            CHECK_ALLCLOSE(P, golden06::load("pe_n" + std::to_string(n) + "_d" + std::to_string(d)), 0.0, 1e-12);
        }
    };
    PROPERTY("far positions (up to 10000) match PyTorch's table to 1e-10, d 64 and 512") {
        // At i = 10000 the fastest angle is 10^4 radians; two correct routes to the frequency
        // differ in its last bits, so the sines agree to about 1e-12, not to the last bit.
        const std::vector<std::size_t> positions = golden06::far_positions();
        for (const std::size_t d : {64, 512}) {
            INFO("d " << d);
            const A P = sinusoidal_encoding<double>(10001, d);
            REQUIRE_SHAPE(P.shape(), {10001, d});
            const A rows = xt::view(P, xt::keep(positions), xt::all());
            CHECK_ALLCLOSE(rows, golden06::load("pe_far_d" + std::to_string(d)), 0.0, 1e-10);
        }
    };
    PROPERTY("a float table is the double table rounded, even at position 10000 (the angle is taken in double)") {
        const std::vector<std::size_t> positions = golden06::far_positions();
        const xt::xarray<float> P = sinusoidal_encoding<float>(10001, 64);
        REQUIRE_SHAPE(P.shape(), {10001, 64});
        const xt::xarray<float> rows = xt::view(P, xt::keep(positions), xt::all());
        // Compared with your own double table, so that a mistake in the formula shows up in
        // the double properties above, not here: this one is only about the precision.
        const A P_double = sinusoidal_encoding<double>(10001, 64);
        REQUIRE_SHAPE(P_double.shape(), {10001, 64});
        const A rounded = xt::cast<float>(xt::eval(xt::view(P_double, xt::keep(positions), xt::all())));
        CHECK_ALLCLOSE(rows, rounded, 0.0, 1e-6);
    };
    PROPERTY("an odd or zero d is refused: the features come in (sine, cosine) pairs") {
        CHECK_THROWS_AS(sinusoidal_encoding<double>(4, 7), std::invalid_argument);
        CHECK_THROWS_AS(sinusoidal_encoding<double>(4, 0), std::invalid_argument);
    };
}
