// The summaries of the layer-cost benchmark (chapters/04_self_attention/layer_cost_report.cpp) on made-up costs whose
// slopes and crossings are known exactly: power laws are straight lines on log-log axes.
#include "chapters/04_self_attention/layer_cost.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>

using attn::ch04::CostPoint;

namespace {

// Every layer at n = 16 ... 2048, costing attention(n), gru(n) and conv(n) milliseconds.
std::vector<CostPoint> made_up(const std::function<double(double)>& attention, const std::function<double(double)>& gru,
                               const std::function<double(double)>& conv) {
    std::vector<CostPoint> points;
    for (std::size_t n = 16; n <= 2048; n *= 2) {
        const double x = static_cast<double>(n);
        points.push_back({"self-attention", n, 64, attention(x), x * x / 1e5});
        points.push_back({"GRU", n, 64, gru(x), x / 1e3});
        points.push_back({"convolution k3", n, 64, conv(x), 0.0});
    }
    return points;
}

}  // namespace

TEST_CASE("ch04 model: layer-cost slopes and crossovers on costs known exactly" * doctest::test_suite("ch04")) {
    // attention 1e-4 n^2, GRU 1e-2 n: equal where 1e-4 n = 1e-2, at n = 100 (between 64 and 128)
    const std::vector<CostPoint> points = made_up([](double n) { return 1e-4 * n * n; }, [](double n) { return 1e-2 * n; },
                                                  [](double n) { return 3e-3 * n; });
    SUBCASE("the fitted slopes are the exponents") {
        CHECK(attn::ch04::fit_log_log(points, "self-attention").slope == doctest::Approx(2.0).epsilon(1e-12));
        CHECK(attn::ch04::fit_log_log(points, "GRU").slope == doctest::Approx(1.0).epsilon(1e-12));
        CHECK(attn::ch04::fit_log_log(points, "GRU").intercept == doctest::Approx(std::log(1e-2)).epsilon(1e-12));
    }
    SUBCASE("the crossover is where the two costs are equal, measured and fitted") {
        REQUIRE(attn::ch04::attention_gru_crossover(points).has_value());
        CHECK(*attn::ch04::attention_gru_crossover(points) == doctest::Approx(100.0).epsilon(1e-9));
        CHECK(*attn::ch04::fitted_attention_gru_crossover(points) == doctest::Approx(100.0).epsilon(1e-9));
    }
    SUBCASE("only the upper half of n counts: a constant overhead at small n does not bend the slope") {
        // 5 ms below n = 181 (the geometric middle of 16 and 2048), a clean n^2 above it
        const std::vector<CostPoint> bent = made_up([](double n) { return n < 181 ? 5.0 : 1e-4 * n * n; },
                                                    [](double n) { return 1e-2 * n; }, [](double n) { return n; });
        CHECK(attn::ch04::fit_log_log(bent, "self-attention").slope == doctest::Approx(2.0).epsilon(1e-12));
    }
    SUBCASE("no crossing inside the range: none measured, the fitted lines still meet beyond it") {
        // attention 1e-6 n^2 against GRU 1e-2 n: equal at n = 10^4
        const std::vector<CostPoint> late = made_up([](double n) { return 1e-6 * n * n; }, [](double n) { return 1e-2 * n; },
                                                    [](double n) { return n; });
        CHECK_FALSE(attn::ch04::attention_gru_crossover(late).has_value());
        CHECK(*attn::ch04::fitted_attention_gru_crossover(late) == doctest::Approx(1e4).epsilon(1e-9));
    }
    SUBCASE("the table has one row per length and the header names every layer") {
        const std::string table = attn::ch04::cost_table(points);
        CHECK(table.rfind("n\tself-attention ms\tself-attention MiB\tGRU ms\tGRU MiB\tconvolution k3 ms\tconvolution k3 MiB\n", 0) == 0);
        CHECK(std::count(table.begin(), table.end(), '\n') == 1 + 8);
        CHECK(table.find("\n128\t1.6384\t0.16\t1.2800\t0.13\t0.3840\t0.00\n") != std::string::npos);   // 1e-4 * 128^2 = 1.6384
    }
    SUBCASE("the time plot's legend gives each fitted slope beside the theory, and draws each fitted line") {
        const attn::plot::LinePlot plot = attn::ch04::time_plot(points);
        REQUIRE(plot.series.size() == 3 + 3);
        CHECK(plot.series[0].label == "self-attention: slope 2.00 (theory 2)");
        CHECK(plot.series[1].label == "GRU: slope 1.00 (theory 1)");
        // the fitted lines: dashed, in their layer's colour, over n = 256 ... 2048 (the upper half)
        const attn::plot::Series& fitted_attention = plot.series[3];
        CHECK(fitted_attention.dashed);
        CHECK(fitted_attention.colour == 0);
        CHECK(plot.series[4].colour == 1);
        REQUIRE(fitted_attention.x.size() == 2);
        CHECK(fitted_attention.x[0] == 256.0);
        CHECK(fitted_attention.x[1] == 2048.0);
        CHECK(fitted_attention.y[0] == doctest::Approx(1e-4 * 256 * 256).epsilon(1e-9));
        CHECK(fitted_attention.y[1] == doctest::Approx(1e-4 * 2048 * 2048).epsilon(1e-9));
        CHECK(plot.log_x);
        CHECK(plot.log_y);
        CHECK(attn::ch04::memory_plot(points).series[2].x.empty());   // zero MiB cannot sit on a log axis
    }
}
