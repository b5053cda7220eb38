// The vectorized row loops of common/row_math.hpp against plain loops and the standard
// library's exp and tanh in double.
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

TEST_CASE("row_math: exp_minus gives each entry what it gets alone, at every length, in place or not" * doctest::test_suite("common")) {
    // A row whose length is not a multiple of 16 has its last entries computed as one
    // vector of the row's last 16 (recomputing some): each must still get its own value.
    for (std::size_t n = 1; n <= 50; ++n) {
        CAPTURE(n);
        const std::vector<float> x = ramp(n);
        std::vector<float> out(n), in_place = x;
        row_math::exp_minus(x.data(), 1.5f, out.data(), n);
        row_math::exp_minus(in_place.data(), 1.5f, in_place.data(), n);
        for (std::size_t j = 0; j < n; ++j) {
            float alone;
            row_math::exp_minus(&x[j], 1.5f, &alone, 1);
            CHECK(out[j] == alone);
            CHECK(in_place[j] == alone);
        }
    }
}

namespace {
// The largest error of f against `exact` (computed in double) over `x`, in units of the
// float's rounding (half an ulp of 1): relative to the exact value, or absolute where the
// exact value is below `floor` (near a zero of the function, a relative error means nothing).
template <class F, class Exact>
double worst_error(const std::vector<float>& x, F f, Exact exact, double floor) {
    std::vector<float> y(x.size());
    f(x.data(), y.data(), x.size());
    double worst = 0;
    for (std::size_t j = 0; j < x.size(); ++j) {
        const double e = exact(static_cast<double>(x[j]));
        worst = std::max(worst, std::abs(y[j] - e) / std::max(std::abs(e), floor));
    }
    return worst / (std::numeric_limits<float>::epsilon() / 2);
}

std::vector<float> grid(float from, float to, float step) {
    std::vector<float> x;
    for (float v = from; v <= to; v += step) x.push_back(v);
    return x;
}

const float inf = std::numeric_limits<float>::infinity();
const float not_a_number = std::numeric_limits<float>::quiet_NaN();
}  // namespace

TEST_CASE("row_math: exp is within 2 units in the last place over the normal range" * doctest::test_suite("common")) {
    const std::vector<float> x = grid(-87.0f, 88.5f, 0.0007f);
    const double error = worst_error(x, [](const float* a, float* b, std::size_t n) { row_math::exp(a, b, n); },
                                     [](double v) { return std::exp(v); }, 0.0);
    CHECK(error < 4);   // 4 half-ulps: 2 ulp
}

TEST_CASE("row_math: exp overflows to inf, underflows to 0, keeps NaN, and exp(0) = 1" * doctest::test_suite("common")) {
    const std::vector<float> x = {0.0f, 89.0f, 1000.0f, inf, -104.0f, -1000.0f, -inf, not_a_number, -100.0f};
    std::vector<float> y(x.size());
    row_math::exp(x.data(), y.data(), x.size());
    CHECK(y[0] == 1.0f);
    CHECK(y[1] == inf);
    CHECK(y[2] == inf);
    CHECK(y[3] == inf);
    CHECK(y[4] == 0.0f);
    CHECK(y[5] == 0.0f);
    CHECK(y[6] == 0.0f);
    CHECK(std::isnan(y[7]));
    // exp(-100) = 3.7e-44 is a subnormal float: it comes out as std::exp's, not flushed to 0
    CHECK(y[8] > 0.0f);
    CHECK(y[8] == doctest::Approx(std::exp(-100.0)).epsilon(0.05));
}

TEST_CASE("row_math: sigmoid is within 3 units in the last place and saturates to exactly 0 and 1" * doctest::test_suite("common")) {
    const std::vector<float> x = grid(-80.0f, 30.0f, 0.0009f);
    const double error = worst_error(x, [](const float* a, float* b, std::size_t n) { row_math::sigmoid(a, b, n); },
                                     [](double v) { return 1.0 / (1.0 + std::exp(-v)); }, 0.0);
    CHECK(error < 6);
    const std::vector<float> ends = {-1000.0f, -inf, 1000.0f, inf, 0.0f, not_a_number};
    std::vector<float> y(ends.size());
    row_math::sigmoid(ends.data(), y.data(), ends.size());
    CHECK(y[0] == 0.0f);
    CHECK(y[1] == 0.0f);
    CHECK(y[2] == 1.0f);
    CHECK(y[3] == 1.0f);
    CHECK(y[4] == 0.5f);
    CHECK(std::isnan(y[5]));
}

TEST_CASE("row_math: tanh is within 3 units in the last place on both sides of 0.625" * doctest::test_suite("common")) {
    // Dense around 0 (the polynomial), across the switch at |x| = 0.625, and out to saturation.
    for (const auto& range : {grid(-0.7f, 0.7f, 0.00001f), grid(-12.0f, 12.0f, 0.0003f)}) {
        const double error = worst_error(range, [](const float* a, float* b, std::size_t n) { row_math::tanh(a, b, n); },
                                         [](double v) { return std::tanh(v); }, 0.0);
        CHECK(error < 6);
    }
    const std::vector<float> x = {0.0f, 1e-30f, -1e-30f, 50.0f, -50.0f, inf, -inf, not_a_number, 0.625f, -0.625f};
    std::vector<float> y(x.size());
    row_math::tanh(x.data(), y.data(), x.size());
    CHECK(y[0] == 0.0f);
    CHECK(y[1] == 1e-30f);   // tanh x = x to float precision near 0: no cancellation
    CHECK(y[2] == -1e-30f);
    CHECK(y[3] == 1.0f);
    CHECK(y[4] == -1.0f);
    CHECK(y[5] == 1.0f);
    CHECK(y[6] == -1.0f);
    CHECK(std::isnan(y[7]));
    CHECK(y[8] == -y[9]);   // odd
}

TEST_CASE("row_math: the double versions are the standard library's" * doctest::test_suite("common")) {
    const std::vector<double> x = {-3.5, -0.2, 0.0, 0.7, 4.0};
    std::vector<double> e(x.size()), s(x.size()), t(x.size());
    row_math::exp(x.data(), e.data(), x.size());
    row_math::sigmoid(x.data(), s.data(), x.size());
    row_math::tanh(x.data(), t.data(), x.size());
    for (std::size_t j = 0; j < x.size(); ++j) {
        CHECK(e[j] == std::exp(x[j]));
        CHECK(s[j] == 1.0 / (1.0 + std::exp(-x[j])));
        CHECK(t[j] == std::tanh(x[j]));
    }
}

TEST_CASE("row_math: scale multiplies every entry" * doctest::test_suite("common")) {
    for (const std::size_t n : lengths) {
        std::vector<float> x = ramp(n);
        const std::vector<float> before = x;
        row_math::scale(x.data(), 0.25f, n);
        for (std::size_t j = 0; j < n; ++j) CHECK(x[j] == before[j] * 0.25f);
    }
}
