// Self-checks for exercise 06.2: position_rotation (exercises/06_positional_encoding/position_rotation.cpp).
#include "chapters/06_positional_encoding/position_rotation.hpp"
#include "chapters/06_positional_encoding/sinusoidal_encoding.hpp"
#include "tests/06_positional_encoding/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/property.hpp"

#include <xtensor-blas/xlinalg.hpp>

#include <cmath>

using A = xt::xarray<double>;
using attn::ch06::position_rotation;

TEST_CASE("06.2 position_rotation" * doctest::test_suite("ch06")) {
    PROPERTY("d 2, delta 1: [[cos 1, -sin 1], [sin 1, cos 1]], so [sin x, cos x] R = [sin(x + 1), cos(x + 1)]") {
        // With row vectors the minus sign sits above the diagonal; the column-vector form
        // [[cos, sin], [-sin, cos]] would move the codes the other way, by -1.
        const A R = position_rotation<double>(1, 2);
        REQUIRE_SHAPE(R.shape(), {2, 2});
        const A expected = golden03::t2({{std::cos(1.0), -std::sin(1.0)}, {std::sin(1.0), std::cos(1.0)}});
        CHECK_MESSAGE(!xt::allclose(R, xt::transpose(expected), 1e-12, 1e-12),
                      "this is the column-vector block [[cos, sin], [-sin, cos]] = R(-delta): it moves the codes "
                      "back by delta; with row vectors (P[i] R) the minus sign goes above the diagonal");
        CHECK_ALLCLOSE(R, expected, 1e-15, 1e-15);
    };
    PROPERTY("delta 0 gives the identity") {
        const A R = position_rotation<double>(0, 8);
        REQUIRE_SHAPE(R.shape(), {8, 8});
        CHECK_ALLCLOSE(R, A(xt::eye<double>(8)), 0.0, 0.0);
    };
    PROPERTY("P[i + delta] = P[i] R(delta) for every i and many delta, negative ones included (6.2)") {
        for (const std::size_t d : {2, 16, 64}) {
            const std::size_t n = 120;
            const A P = attn::ch06::sinusoidal_encoding<double>(n, d);
            for (const std::ptrdiff_t delta : {-37, -20, -7, -1, 1, 2, 5, 12, 29, 60}) {
                INFO("d " << d << ", delta " << delta);
                const A R = position_rotation<double>(delta, d);
                REQUIRE_SHAPE(R.shape(), {d, d});
                // The rows i for which i and i + delta are both in the table.
                const std::size_t first = delta < 0 ? static_cast<std::size_t>(-delta) : 0;
                const std::size_t last = delta < 0 ? n : n - static_cast<std::size_t>(delta);
                const A from = xt::view(P, xt::range(first, last), xt::all());
                const A to = xt::view(P, xt::range(static_cast<std::ptrdiff_t>(first) + delta,
                                                   static_cast<std::ptrdiff_t>(last) + delta), xt::all());
                CHECK_ALLCLOSE(xt::linalg::dot(from, R), to, 0.0, 1e-12);
            }
        }
    };
    PROPERTY("only the 2x2 blocks of the pairs are non-zero: pair j never mixes with pair k") {
        const A R = position_rotation<double>(3, 8);
        REQUIRE_SHAPE(R.shape(), {8, 8});
        for (std::size_t r = 0; r < 8; ++r)
            for (std::size_t c = 0; c < 8; ++c)
                if (r / 2 != c / 2) CHECK_MESSAGE(R(r, c) == 0.0, "R(" << r << ", " << c << ") = " << R(r, c));
    };
    PROPERTY("it is orthogonal: R(delta) R(delta)^T = I, so it keeps lengths") {
        for (const std::ptrdiff_t delta : {-9, 4, 1000}) {
            const A R = position_rotation<double>(delta, 10);
            REQUIRE_SHAPE(R.shape(), {10, 10});
            CHECK_ALLCLOSE(xt::linalg::dot(R, xt::transpose(R)), A(xt::eye<double>(10)), 0.0, 1e-14);
        }
    };
    PROPERTY("moves add up: R(a) R(b) = R(a + b), and R(-a) undoes R(a)") {
        for (const auto& [a, b] : {std::pair<std::ptrdiff_t, std::ptrdiff_t>{3, 4}, {-5, 2}, {7, -7}, {250, 31}}) {
            INFO("a " << a << ", b " << b);
            const A R_a = position_rotation<double>(a, 12), R_b = position_rotation<double>(b, 12);
            REQUIRE_SHAPE(R_a.shape(), {12, 12});
            CHECK_ALLCLOSE(xt::linalg::dot(R_a, R_b), position_rotation<double>(a + b, 12), 0.0, 1e-13);
            CHECK_ALLCLOSE(xt::linalg::dot(R_a, position_rotation<double>(-a, 12)), A(xt::eye<double>(12)), 0.0, 1e-14);
        }
    };
    PROPERTY("an odd or zero d is refused") {
        CHECK_THROWS_AS(position_rotation<double>(1, 5), std::invalid_argument);
        CHECK_THROWS_AS(position_rotation<double>(1, 0), std::invalid_argument);
    };
}
