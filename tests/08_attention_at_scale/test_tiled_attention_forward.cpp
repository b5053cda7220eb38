// Self-checks for exercise 08.2: tiled_attention_forward
// (exercises/08_attention_at_scale/tiled_attention_forward.cpp), against cases worked by hand,
// chapter 03's scaled_dot_product_attention with the same mask (tests/08_attention_at_scale/
// chapter03_reference.hpp), and the log-sum-exp computed here with loops.
#include "chapters/08_attention_at_scale/tiled_attention_forward.hpp"
#include "tests/08_attention_at_scale/chapter03_reference.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/property.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

using attn::Matrix;
using attn::Tensor3;
using attn::ch08::Blocks;
using attn::ch08::KeyMask;
using attn::ch08::TiledAttention;

namespace {

const double inf = std::numeric_limits<double>::infinity();
// The same sums in another order: double rounding only.
constexpr double same_in_double = 1e-12;
// Float: the tiles' exp (a polynomial within 2 ulps) and sums in another order, over up to 300 keys.
constexpr double same_in_float = 2e-5;

// Block sizes that divide n = 12 and sizes that do not, one key at a time, and one tile for all.
const std::vector<Blocks> block_choices = {{1, 1}, {4, 6}, {12, 12}, {5, 7}, {3, 5}, {7, 2}, {256, 256}};

// log sum_j exp(q_i . k_j / sqrt(d)) over the keys query i sees, by loops (-inf if none).
Matrix<double> log_sum_exp_by_loops(const Tensor3<double>& Q, const Tensor3<double>& K, const KeyMask& mask) {
    const std::size_t batch = Q.shape(0), n_q = Q.shape(1), n_k = K.shape(1), d = Q.shape(2);
    Matrix<double> L = Matrix<double>::from_shape({batch, n_q});
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t i = 0; i < n_q; ++i) {
            const std::size_t length = mask.valid_lens.size() ? static_cast<std::size_t>(mask.valid_lens(b)) : n_k;
            std::vector<double> scores;
            for (std::size_t j = 0; j < length && (!mask.causal || j <= i); ++j) {
                double s = 0;
                for (std::size_t c = 0; c < d; ++c) s += Q(b, i, c) * K(b, j, c);
                scores.push_back(s / std::sqrt(static_cast<double>(d)));
            }
            double m = -inf, total = 0;
            for (const double s : scores) m = std::max(m, s);
            for (const double s : scores) total += std::exp(s - m);
            L(b, i) = scores.empty() ? -inf : m + std::log(total);
        }
    return L;
}

TiledAttention<double> tiled(const Tensor3<double>& Q, const Tensor3<double>& K, const Tensor3<double>& V,
                             const KeyMask& mask, const Blocks& blocks) {
    return attn::ch08::tiled_attention_forward(Q, K, V, mask, blocks);
}

}  // namespace

TEST_CASE("08.2 tiled_attention_forward" * doctest::test_suite("ch08")) {
    const Tensor3<double> Q = ref08::random3(2, 12, 4, 1), K = ref08::random3(2, 12, 4, 2), V = ref08::random3(2, 12, 3, 3);
    const KeyMask padded{false, {12, 5}}, causal{true, {}}, causal_padded{true, {7, 12}};
    // The tiled output against chapter 03's, with the same mask, for every blocking.
    const auto check_every_blocking = [&](const KeyMask& mask) {
        const Tensor3<double> expected = ref08::attention_output(Q, K, V, mask);
        for (const Blocks& blocks : block_choices) {
            INFO(ref08::describe(blocks));
            CHECK_ALLCLOSE(tiled(Q, K, V, mask, blocks).output, expected, same_in_double, same_in_double);
        }
    };

    PROPERTY("one query and one key: the output is that key's value, the log-sum-exp its score") {
        // s = q . k / sqrt(4) = (1*0.5 + 2*(-1) + 3*2) / 2 = 2.25; softmax of one score is 1.
        const Tensor3<double> q = {{{1.0, 2.0, 3.0, 4.0}}}, k = {{{0.5, -1.0, 2.0, 0.0}}}, v = {{{3.0, -7.0}}};
        const TiledAttention<double> r = tiled(q, k, v, {}, {});
        CHECK_ALLCLOSE(r.output, Tensor3<double>({{{3.0, -7.0}}}), 0.0, 1e-15);
        CHECK(r.log_sum_exp(0, 0) == doctest::Approx(2.25).epsilon(1e-15));
    };
    PROPERTY("a case worked by hand: scores 1 and 0, one key per block, give softmax([1, 0]) and log(e + 1)") {
        // q . k_0 / sqrt(4) = 2 / 2 = 1 and q . k_1 = 0: weights e / (e + 1) = 0.731059, 1 / (e + 1) = 0.268941;
        // values [1, 0] and [0, 1] give O = the weights; L = log(e^1 + e^0) = 1.313262.
        const Tensor3<double> q = {{{2.0, 0.0, 0.0, 0.0}}}, k = {{{1.0, 0.0, 0.0, 0.0}, {0.0, 0.0, 0.0, 0.0}}};
        const Tensor3<double> v = {{{1.0, 0.0}, {0.0, 1.0}}};
        const TiledAttention<double> r = tiled(q, k, v, {}, {1, 1});
        const double e = std::exp(1.0);
        CHECK_ALLCLOSE(r.output, Tensor3<double>({{{e / (e + 1), 1 / (e + 1)}}}), 1e-15, 0.0);
        CHECK(r.log_sum_exp(0, 0) == doctest::Approx(1.313261687518223).epsilon(1e-15));
    };
    PROPERTY("the larger score in the second block: the first block's sum is rescaled, not kept") {
        // scores 0 then 2 (q . k / sqrt(4) with q = [4, 0, 0, 0]): weights 1 / (1 + e^2), e^2 / (1 + e^2)
        const Tensor3<double> q = {{{4.0, 0.0, 0.0, 0.0}}}, k = {{{0.0, 0.0, 0.0, 0.0}, {1.0, 0.0, 0.0, 0.0}}};
        const Tensor3<double> v = {{{1.0, 0.0}, {0.0, 1.0}}};
        const double e2 = std::exp(2.0);
        CHECK_ALLCLOSE(tiled(q, k, v, {}, {1, 1}).output, Tensor3<double>({{{1 / (1 + e2), e2 / (1 + e2)}}}), 1e-15, 0.0);
    };
    PROPERTY("the output and the log-sum-exp have one row per query: (batch, n_q, d_v) and (batch, n_q)") {
        const TiledAttention<double> r = tiled(xt::view(Q, xt::all(), xt::range(0, 5), xt::all()), K, V, {}, {2, 5});
        REQUIRE_SHAPE(r.output.shape(), {2, 5, 3});
        REQUIRE_SHAPE(r.log_sum_exp.shape(), {2, 5});
    };
    PROPERTY("without a mask it equals chapter 03's attention, for blocks that divide n and blocks that do not") {
        check_every_blocking({});
    };
    PROPERTY("with a causal mask it equals chapter 03's attention with causal_mask, for every blocking") {
        check_every_blocking(causal);
    };
    PROPERTY("with valid lengths it equals chapter 03's attention with length_mask: the padding is never read") {
        const Tensor3<double> expected = ref08::attention_output(Q, K, V, padded);
        Tensor3<double> K_noise = K, V_noise = V;   // batch entry 1 has 5 valid keys: change the other 7
        xt::view(K_noise, 1, xt::range(5, 12), xt::all()) = 1e3;
        xt::view(V_noise, 1, xt::range(5, 12), xt::all()) = std::nan("");
        for (const Blocks& blocks : block_choices) {
            INFO(ref08::describe(blocks));
            CHECK_ALLCLOSE(tiled(Q, K, V, padded, blocks).output, expected, same_in_double, same_in_double);
            CHECK_ALLCLOSE(tiled(Q, K_noise, V_noise, padded, blocks).output, expected, same_in_double, same_in_double);
        }
    };
    PROPERTY("a causal mask and valid lengths together equal chapter 03's two masks joined") {
        check_every_blocking(causal_padded);
    };
    PROPERTY("the log-sum-exp of each row is log sum_j exp(s_ij), for every blocking") {
        for (const KeyMask& mask : {KeyMask{}, causal, causal_padded}) {
            const Matrix<double> expected = log_sum_exp_by_loops(Q, K, mask);
            for (const Blocks& blocks : block_choices) {
                INFO(ref08::describe(blocks) << (mask.causal ? ", causal" : ""));
                CHECK_ALLCLOSE(tiled(Q, K, V, mask, blocks).log_sum_exp, expected, same_in_double, same_in_double);
            }
        }
    };
    PROPERTY("a sequence of valid length 0: output rows 0 and log-sum-exp -inf, never NaN") {
        const KeyMask empty{false, {0, 12}};
        for (const Blocks& blocks : {Blocks{5, 7}, Blocks{}}) {
            const TiledAttention<double> r = tiled(Q, K, V, empty, blocks);
            CHECK(xt::all(xt::equal(xt::view(r.output, 0), 0.0)));
            CHECK(xt::all(xt::equal(xt::view(r.log_sum_exp, 0), -inf)));
            CHECK_ALLCLOSE(xt::view(r.output, 1), xt::view(ref08::attention_output(Q, K, V), 1), same_in_double, same_in_double);
        }
    };
    PROPERTY("more keys than queries (cross-attention), blocks dividing neither") {
        const Tensor3<double> Kx = ref08::random3(2, 17, 4, 5), Vx = ref08::random3(2, 17, 3, 6);
        const KeyMask lens{false, {17, 9}};
        CHECK_ALLCLOSE(tiled(Q, Kx, Vx, lens, {5, 4}).output, ref08::attention_output(Q, Kx, Vx, lens), same_in_double,
                       same_in_double);
    };
    PROPERTY("float32 with the default 256 x 256 tiles over 300 queries and keys: chapter 03's numbers to float's rounding") {
        const Tensor3<float> Qf = ref08::random3<float>(1, 300, 8, 7), Kf = ref08::random3<float>(1, 300, 8, 8);
        const Tensor3<float> Vf = ref08::random3<float>(1, 300, 6, 9);
        for (const KeyMask& mask : {KeyMask{}, causal, KeyMask{true, {290}}}) {
            INFO((mask.causal ? "causal" : "no mask"));
            CHECK_ALLCLOSE(attn::ch08::tiled_attention_forward(Qf, Kf, Vf, mask).output,
                           ref08::attention_output(Qf, Kf, Vf, mask), same_in_float, same_in_float);
        }
    };
    PROPERTY("huge scores stay finite and exact: the running maximum keeps every exponent <= 0") {
        const Tensor3<double> Qh = Q * 40.0, Kh = K * 40.0;   // scores in the thousands
        for (const Blocks& blocks : {Blocks{3, 5}, Blocks{1, 1}}) {
            INFO(ref08::describe(blocks));
            const TiledAttention<double> r = tiled(Qh, Kh, V, causal, blocks);
            CHECK(xt::all(xt::isfinite(r.output)));
            CHECK_ALLCLOSE(r.output, ref08::attention_output(Qh, Kh, V, causal), same_in_double, same_in_double);
        }
    };
    PROPERTY("wrong shapes, a block size of 0 and impossible masks are refused in one line") {
        const auto message = [](const Tensor3<double>& q, const Tensor3<double>& k, const Tensor3<double>& v,
                                const KeyMask& mask, const Blocks& blocks) -> std::string {
            try {
                attn::ch08::tiled_attention_forward(q, k, v, mask, blocks);
            } catch (const std::invalid_argument& e) {
                return e.what();
            }
            return "no exception";
        };
        const Tensor3<double> k3 = ref08::random3(2, 12, 3, 4);
        CHECK(message(Q, k3, V, {}, {}).find("K (2, 12, 3)") != std::string::npos);
        CHECK(message(Q, K, V, {}, {0, 4}).find("block sizes must be at least 1") != std::string::npos);
        CHECK(message(Q, K, V, {}, {4, 0}).find("0 keys") != std::string::npos);
        CHECK(message(xt::view(Q, xt::all(), xt::range(0, 5), xt::all()), K, V, causal, {}).find("n_q == n_k") !=
              std::string::npos);
        CHECK(message(Q, K, V, {false, {3, 13}}, {}).find("[0, n_k] = [0, 12], got 13") != std::string::npos);
        CHECK(message(Q, K, V, {false, {3}}, {}).find("one length per batch entry") != std::string::npos);
    };
}
