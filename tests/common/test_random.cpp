// The seeded generator: reproducible, and with the distributions it promises.
#include "common/random.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

TEST_CASE("random: the same seed gives the same numbers, another seed others" * doctest::test_suite("common")) {
    attn::Rng a(7), b(7), c(8);
    bool all_same = true, any_same_as_c = false;
    for (int i = 0; i < 100; ++i) {
        const std::uint64_t x = a.next_u64();
        all_same = all_same && x == b.next_u64();
        any_same_as_c = any_same_as_c || x == c.next_u64();
    }
    CHECK(all_same);
    CHECK_FALSE(any_same_as_c);
}

TEST_CASE("random: uniform and normal have the right moments" * doctest::test_suite("common")) {
    attn::Rng rng(11);
    constexpr int n = 200000;
    double su = 0, sn = 0, sn2 = 0, lo = 1, hi = 0;
    for (int i = 0; i < n; ++i) {
        const double u = rng.uniform();
        su += u, lo = std::min(lo, u), hi = std::max(hi, u);
        const double z = rng.normal(1.0, 2.0);
        sn += z, sn2 += z * z;
    }
    // Standard errors: uniform mean 0.29 / sqrt(n) = 6.5e-4; normal mean 2 / sqrt(n) = 4.5e-3.
    CHECK(std::abs(su / n - 0.5) < 0.004);
    CHECK(lo >= 0.0);
    CHECK(hi < 1.0);
    const double mean = sn / n, variance = sn2 / n - mean * mean;
    CHECK(std::abs(mean - 1.0) < 0.03);
    CHECK(std::abs(variance - 4.0) < 0.08);
}

TEST_CASE("random: a permutation holds every index once" * doctest::test_suite("common")) {
    attn::Rng rng(3);
    std::vector<std::size_t> order = rng.permutation(50);
    const std::vector<std::size_t> before = order;
    std::sort(order.begin(), order.end());
    for (std::size_t i = 0; i < 50; ++i) CHECK(order[i] == i);
    CHECK_FALSE(std::is_sorted(before.begin(), before.end()));
    CHECK_THROWS_AS(rng.below(0), std::invalid_argument);
}
