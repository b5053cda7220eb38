// The vectorized row loops of common/row_math.hpp against plain loops and std::exp in double.
#include "common/row_math.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace row_math = attn::row_math;

namespace {
// Lengths around the 16-lane blocks: an empty tail, a short tail, shorter than one block.
const std::vector<std::size_t> lengths = {1, 3, 15, 16, 17, 33, 1000};

std::vector<float> ramp(std::size_t n) {   // distinct, irregular values in [-5, 5)
    std::vector<float> x(n);
    for (std::size_t j = 0; j < n; ++j) x[j] = static_cast<float>(std::fmod(j * 2.718281828, 10.0) - 5.0);
    return x;
}
}  // namespace

TEST_CASE("row_math: max, sum and dot equal plain loops at every length" * doctest::test_suite("common")) {
    for (const std::size_t n : lengths) {
        CAPTURE(n);
        const std::vector<float> x = ramp(n);
        std::vector<float> y(n);
        for (std::size_t j = 0; j < n; ++j) y[j] = x[n - 1 - j];
        double max = x[0], sum = 0, dot = 0;
        for (std::size_t j = 0; j < n; ++j) {
            max = std::max<double>(max, x[j]);
            sum += x[j];
            dot += static_cast<double>(x[j]) * y[j];
        }
        CHECK(row_math::max(x.data(), n) == static_cast<float>(max));
        CHECK(row_math::sum(x.data(), n) == doctest::Approx(sum).epsilon(1e-5).scale(n));
        CHECK(row_math::dot(x.data(), y.data(), n) == doctest::Approx(dot).epsilon(1e-5).scale(n));
    }
    const std::vector<double> d = {2, -7, 11, 3};
    CHECK(row_math::max(d.data(), 4) == 11);
    CHECK(row_math::sum(d.data(), 4) == 9);
    CHECK(row_math::dot(d.data(), d.data(), 4) == 4 + 49 + 121 + 9);
}

TEST_CASE("row_math: exp_minus is within 2 units in the last place of exp on [-87, 0]" * doctest::test_suite("common")) {
    // Every exponent from -87 to 0 in steps of 0.001, computed in double for the reference.
    const std::size_t n = 87001;
    std::vector<float> x(n), y(n);
    for (std::size_t j = 0; j < n; ++j) x[j] = -87.0f + 0.001f * static_cast<float>(j);
    row_math::exp_minus(x.data(), 0.0f, y.data(), n);
    double worst = 0;
    for (std::size_t j = 0; j < n; ++j) {
        const double exact = std::exp(static_cast<double>(x[j]));
        worst = std::max(worst, std::abs(y[j] - exact) / exact);
    }
    const double unit_roundoff = std::numeric_limits<float>::epsilon() / 2;   // half an ulp of 1, relative
    CHECK(worst < 4 * unit_roundoff);                                        // 2 ulp
}

TEST_CASE("row_math: exp_minus subtracts the shift, underflows to exactly 0 and keeps NaN" * doctest::test_suite("common")) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const std::vector<float> x = {1000.0f, 999.0f, 0.0f, -1e9f, nan, 1000.5f};
    std::vector<float> y(x.size());
    row_math::exp_minus(x.data(), 1000.0f, y.data(), x.size());
    CHECK(y[0] == 1.0f);
    CHECK(y[1] == doctest::Approx(std::exp(-1.0)).epsilon(1e-6));
    CHECK(y[2] == 0.0f);   // exp(-1000): a masked score's weight must be exactly zero
    CHECK(y[3] == 0.0f);
    CHECK(std::isnan(y[4]));
    CHECK(y[5] == doctest::Approx(std::exp(0.5)).epsilon(1e-6));
    std::vector<double> d = {0.0, -1.0, -800.0};
    row_math::exp_minus(d.data(), 0.0, d.data(), 3);   // in place
    CHECK(d[0] == 1.0);
    CHECK(d[1] == std::exp(-1.0));
    CHECK(d[2] == 0.0);
}

TEST_CASE("row_math: scale multiplies every entry" * doctest::test_suite("common")) {
    for (const std::size_t n : lengths) {
        std::vector<float> x = ramp(n);
        const std::vector<float> before = x;
        row_math::scale(x.data(), 0.25f, n);
        for (std::size_t j = 0; j < n; ++j) CHECK(x[j] == before[j] * 0.25f);
    }
}
