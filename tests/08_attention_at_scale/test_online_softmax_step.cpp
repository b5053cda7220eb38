// Self-checks for exercise 08.1: online_softmax_step
// (exercises/08_attention_at_scale/online_softmax_step.cpp). The step is checked alone on cases
// worked by hand, then through online_softmax (chapter code that reads whole rows block by
// block with it) against chapter 00's softmax of the whole row.
#include "chapters/00_foundations/softmax.hpp"
#include "chapters/08_attention_at_scale/online_softmax.hpp"
#include "chapters/08_attention_at_scale/online_softmax_step.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/property.hpp"

#include <cmath>
#include <limits>
#include <string>

using attn::Matrix;
using attn::Vector;
using attn::ch08::RunningSoftmax;
using attn::ch08::SoftmaxBlock;

namespace {

const double inf = std::numeric_limits<double>::infinity();
// Double rounding of a few exp and sums: the two softmaxes agree to about 1e-16 per entry.
constexpr double same_in_double = 1e-12;
// Float's exp in the toolkit is a polynomial within 2 ulps; a row of 10 adds a few more.
constexpr double same_in_float = 2e-6;

RunningSoftmax<double> state_of(std::initializer_list<double> max, std::initializer_list<double> sum) {
    return {Vector<double>(xt::xtensor<double, 1>(max)), Vector<double>(xt::xtensor<double, 1>(sum))};
}

Matrix<double> row(std::initializer_list<double> values) { return Matrix<double>({values}); }

// Every way to cut a row of 10 into blocks: 1 at a time, sizes that divide 10 and sizes that
// do not, the whole row at once.
const std::size_t block_sizes[] = {1, 2, 3, 4, 5, 7, 10, 16};

}  // namespace

TEST_CASE("08.1 online_softmax_step" * doctest::test_suite("ch08")) {
    PROPERTY("a row's first block: the maximum is the block's, the weights are exp(s - max), the rescale is 0") {
        // m' = max(-inf, ln 2, 0) = ln 2; weights exp(ln 2 - ln 2) = 1 and exp(0 - ln 2) = 1/2;
        // l' = 0 * exp(-inf) + 1 + 1/2 = 1.5; rescale exp(-inf - ln 2) = 0 (there was nothing before).
        const SoftmaxBlock<double> step =
            attn::ch08::online_softmax_step(attn::ch08::start_softmax<double>(1), row({std::log(2.0), 0.0}));
        CHECK_ALLCLOSE(step.state.max, Vector<double>({std::log(2.0)}), 1e-15, 0.0);
        CHECK_ALLCLOSE(step.weights, row({1.0, 0.5}), 1e-15, 0.0);
        CHECK_ALLCLOSE(step.state.sum, Vector<double>({1.5}), 1e-15, 0.0);
        CHECK(step.rescale(0) == 0.0);
    };
    PROPERTY("a block worked by hand: after one score of 1, the block [3, 1] moves the maximum to 3 and rescales by e^-2") {
        // before: m = 1, l = exp(1 - 1) = 1.  m' = max(1, 3, 1) = 3.  rescale = exp(1 - 3) = e^-2 = 0.135335;
        // weights exp(3 - 3) = 1, exp(1 - 3) = e^-2;  l' = 1 * e^-2 + 1 + e^-2 = 1 + 2 e^-2 = 1.270671.
        const SoftmaxBlock<double> step = attn::ch08::online_softmax_step(state_of({1.0}, {1.0}), row({3.0, 1.0}));
        const double e2 = std::exp(-2.0);
        CHECK(step.state.max(0) == 3.0);
        CHECK(step.rescale(0) == doctest::Approx(0.135335283).epsilon(1e-9));
        CHECK_ALLCLOSE(step.weights, row({1.0, e2}), 1e-15, 0.0);
        CHECK(step.state.sum(0) == doctest::Approx(1.270670566).epsilon(1e-9));
    };
    PROPERTY("when the maximum does not grow, the rescale is exactly 1 and the earlier sum is kept") {
        // m = 5, l = 2; block [1, 2]: m' = 5, rescale exp(0) = 1, l' = 2 + e^-4 + e^-3 = 2.068103
        const SoftmaxBlock<double> step = attn::ch08::online_softmax_step(state_of({5.0}, {2.0}), row({1.0, 2.0}));
        CHECK(step.state.max(0) == 5.0);
        CHECK(step.rescale(0) == 1.0);
        CHECK_ALLCLOSE(step.weights, row({std::exp(-4.0), std::exp(-3.0)}), 1e-15, 0.0);
        CHECK(step.state.sum(0) == doctest::Approx(2.0 + std::exp(-4.0) + std::exp(-3.0)).epsilon(1e-14));
    };
    PROPERTY("each row of a block has its own maximum, sum and rescale") {
        // row 0: m 0 -> 2, rescale e^-2; row 1: m 4 stays, rescale 1
        const SoftmaxBlock<double> step =
            attn::ch08::online_softmax_step(state_of({0.0, 4.0}, {1.0, 1.0}), Matrix<double>({{2.0, -1.0}, {3.0, 0.0}}));
        CHECK_ALLCLOSE(step.state.max, Vector<double>({2.0, 4.0}), 0.0, 0.0);
        CHECK_ALLCLOSE(step.rescale, Vector<double>({std::exp(-2.0), 1.0}), 1e-15, 0.0);
        CHECK_ALLCLOSE(step.weights, Matrix<double>({{1.0, std::exp(-3.0)}, {std::exp(-1.0), std::exp(-4.0)}}), 1e-15, 0.0);
        CHECK_ALLCLOSE(step.state.sum, Vector<double>({std::exp(-2.0) + 1.0 + std::exp(-3.0), 1.0 + std::exp(-1.0) + std::exp(-4.0)}),
                       1e-14, 0.0);
    };
    // Rows of 10 whose maximum (4.5) comes first, last, in the middle.
    const Matrix<double> rows = {{4.5, 0.3, -1.2, 2.0, 0.7, -0.4, 1.1, 3.9, -2.5, 0.0},
                                 {0.3, -1.2, 2.0, 0.7, -0.4, 1.1, 3.9, -2.5, 0.0, 4.5},
                                 {0.3, -1.2, 2.0, 0.7, 4.5, -0.4, 1.1, 3.9, -2.5, 0.0}};
    const char* where[] = {"first", "last", "in the middle"};
    for (std::size_t r = 0; r < 3; ++r) {
        PROPERTY((std::string("read block by block, a row whose maximum comes ") + where[r] + " equals chapter 00's softmax").c_str()) {
            const Matrix<double> one_row = xt::view(rows, xt::range(r, r + 1), xt::all());
            const Matrix<double> expected = attn::ch00::softmax(one_row);
            for (const std::size_t block : block_sizes) {
                INFO("blocks of " << block);
                CHECK_ALLCLOSE(attn::ch08::online_softmax(one_row, block), expected, same_in_double, same_in_double);
            }
        };
    }
    PROPERTY("several rows at once, in float: equal to chapter 00's softmax to float's rounding") {
        const Matrix<float> rows_f = xt::cast<float>(rows);
        for (const std::size_t block : block_sizes) {
            INFO("blocks of " << block);
            CHECK_ALLCLOSE(attn::ch08::online_softmax(rows_f, block), attn::ch00::softmax(rows_f), same_in_float, same_in_float);
        }
    };
    PROPERTY("-inf scores (blocked keys) get weight exactly 0, also when a row's whole first blocks are -inf") {
        const Matrix<double> blocked = {{-inf, -inf, -inf, 1.0, -inf, 2.0, 0.5, -inf, -inf, -1.0}};
        const Matrix<double> expected = attn::ch00::softmax(blocked);
        for (const std::size_t block : block_sizes) {
            INFO("blocks of " << block);
            const Matrix<double> p = attn::ch08::online_softmax(blocked, block);
            CHECK_ALLCLOSE(p, expected, same_in_double, same_in_double);
            CHECK(p(0, 0) == 0.0);
            CHECK(p(0, 8) == 0.0);
        }
    };
    PROPERTY("a fully blocked row (all -inf) gets zero weights, never NaN (chapter 03's rule)") {
        const SoftmaxBlock<double> step =
            attn::ch08::online_softmax_step(attn::ch08::start_softmax<double>(1), row({-inf, -inf, -inf}));
        CHECK(xt::all(xt::equal(step.weights, 0.0)));
        CHECK(step.state.sum(0) == 0.0);
        CHECK(step.state.max(0) == -inf);
        CHECK(std::isfinite(step.rescale(0)));
        const Matrix<double> all_blocked = {{-inf, -inf, -inf, -inf, -inf}, {1.0, -inf, 0.0, -inf, 2.0}};
        for (const std::size_t block : {1, 2, 5}) {
            INFO("blocks of " << block);
            const Matrix<double> p = attn::ch08::online_softmax(all_blocked, block);
            CHECK(xt::all(xt::equal(xt::view(p, 0, xt::all()), 0.0)));
            CHECK(xt::all(xt::isfinite(p)));
            CHECK_ALLCLOSE(xt::view(p, 1, xt::all()), xt::view(attn::ch00::softmax(all_blocked), 1, xt::all()), same_in_double,
                           same_in_double);
        }
    };
    PROPERTY("huge scores stay finite: a maximum of 1000 first, then scores near -1000") {
        // Subtracting each block's own maximum instead of the running one gives the later
        // blocks exp(s + 1000) ~ 1 and a rescale exp(1000 - (-1000)) = inf.
        const Matrix<double> huge = {{1000.0, 999.0, -1000.0, -999.0, -998.0, 998.5}};
        for (const std::size_t block : {1, 2, 4}) {
            INFO("blocks of " << block);
            const Matrix<double> p = attn::ch08::online_softmax(huge, block);
            CHECK(xt::all(xt::isfinite(p)));
            CHECK_ALLCLOSE(p, attn::ch00::softmax(huge), same_in_double, same_in_double);
        }
    };
    PROPERTY("a block with no column, or a state for another number of rows, is refused in one line") {
        const auto message = [](const RunningSoftmax<double>& state, const Matrix<double>& scores) -> std::string {
            try {
                attn::ch08::online_softmax_step(state, scores);
            } catch (const std::invalid_argument& e) {
                return e.what();
            }
            return "no exception";
        };
        const std::string empty = message(attn::ch08::start_softmax<double>(2), Matrix<double>::from_shape({2, 0}));
        CHECK(empty.find("scores (2, 0)") != std::string::npos);
        CHECK(empty.find('\n') == std::string::npos);
        const std::string rows_differ = message(attn::ch08::start_softmax<double>(3), Matrix<double>({{1.0, 2.0}}));
        CHECK(rows_differ.find("3 maxima") != std::string::npos);
        CHECK_THROWS_WITH_AS(attn::ch08::online_softmax(row({1.0, 2.0}), 0),
                             doctest::Contains("block size >= 1"), std::invalid_argument);
    };
}
