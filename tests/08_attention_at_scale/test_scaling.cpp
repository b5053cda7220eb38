// Part 4's measurement of naive against tiled attention (chapters/08_attention_at_scale/scaling.cpp):
// the fitted slopes on made-up costs, and the memory budget that stops the naive pass.
#include "chapters/08_attention_at_scale/scaling.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using attn::ch08::Measure;
using attn::ch08::ScalingPoint;

namespace {

// naive: 3 n^2 ms and n^2 / 1000 MiB; tiled: n^2 / 10 ms and n / 100 MiB
ScalingPoint made_up(std::size_t n, bool naive_ran) {
    const double x = static_cast<double>(n);
    ScalingPoint p;
    p.n = n;
    if (naive_ran) p.naive_ms = 3 * x * x, p.naive_mib = x * x / 1000;
    p.tiled_ms = x * x / 10, p.tiled_mib = x / 100;
    return p;
}

}  // namespace

TEST_CASE("scaling: the fitted slopes of made-up costs are their exponents" * doctest::test_suite("ch08")) {
    const std::vector<ScalingPoint> points = {made_up(256, true), made_up(512, true), made_up(1024, true),
                                              made_up(2048, true), made_up(4096, false)};
    CHECK(attn::ch08::fit_slope(points, Measure::naive_time)->slope == doctest::Approx(2.0).epsilon(1e-12));
    CHECK(attn::ch08::fit_slope(points, Measure::naive_memory)->slope == doctest::Approx(2.0).epsilon(1e-12));
    CHECK(attn::ch08::fit_slope(points, Measure::tiled_time)->slope == doctest::Approx(2.0).epsilon(1e-12));
    CHECK(attn::ch08::fit_slope(points, Measure::tiled_memory)->slope == doctest::Approx(1.0).epsilon(1e-12));
    // the upper half: n >= sqrt(256 * 4096) = 1024; the naive pass did not run at 4096
    CHECK(attn::ch08::fit_slope(points, Measure::naive_time)->n_min == 1024);
    CHECK(attn::ch08::fit_slope(points, Measure::naive_time)->n_max == 2048);
    CHECK(attn::ch08::fit_slope(points, Measure::tiled_time)->n_max == 4096);
    CHECK(std::exp(attn::ch08::fit_slope(points, Measure::naive_time)->intercept) == doctest::Approx(3.0).epsilon(1e-9));
    CHECK_FALSE(attn::ch08::fit_slope({made_up(256, true)}, Measure::tiled_time).has_value());
}

TEST_CASE("scaling: the naive pass stops at the n whose memory passes the budget" * doctest::test_suite("ch08")) {
    // The naive pass at n = 512 holds two 512 x 512 float matrices (2 MiB): a budget of 0.5 MiB
    // is passed there at the latest, and nothing naive runs after it; the tiled pass runs everywhere.
    std::vector<std::size_t> seen;
    const attn::ch08::ScalingRun run = attn::ch08::measure_scaling(
        {128, 256, 512, 1024}, 16, 0.5, 1, [&](const ScalingPoint& p) { seen.push_back(p.n); });
    CHECK(seen == std::vector<std::size_t>{128, 256, 512, 1024});
    REQUIRE(run.naive_over_budget_at.has_value());
    CHECK(*run.naive_over_budget_at <= 512);
    for (const ScalingPoint& p : run.points) {
        CHECK(p.tiled_ms > 0);
        if (p.n >= *run.naive_over_budget_at && run.predicted) CHECK_FALSE(p.naive_ms.has_value());
        if (p.n > *run.naive_over_budget_at) CHECK_FALSE(p.naive_ms.has_value());
    }
    CHECK_FALSE(run.points.back().naive_ms.has_value());
}

TEST_CASE("scaling: a prediction near the budget counts as over it" * doctest::test_suite("ch08")) {
    // 2056.6 MiB at n = 16,384 predicts 4 x 2056.6 = 8226.4 MiB at 32,768: over a budget of
    // 8192 MiB by 0.4 %, and over 8500 MiB too once the margin of 10 % is added (9049 MiB).
    CHECK(attn::ch08::predicted_over_budget(2056.6, 16384, 32768, 8192));
    CHECK(attn::ch08::predicted_over_budget(2056.6, 16384, 32768, 8500));
    // 1800 MiB predicts 7200 MiB, 7920 MiB with the margin: under 8192.
    CHECK_FALSE(attn::ch08::predicted_over_budget(1800, 16384, 32768, 8192));
    // Doubling n from 1024 to 2048 multiplies the memory by 4: 10 MiB -> 40 MiB, 44 with the margin.
    CHECK(attn::ch08::predicted_over_budget(10, 1024, 2048, 43.9));
    CHECK_FALSE(attn::ch08::predicted_over_budget(10, 1024, 2048, 44.1));
}
