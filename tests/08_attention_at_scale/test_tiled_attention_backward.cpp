// Self-checks for exercise 08.3: tiled_attention_backward
// (exercises/08_attention_at_scale/tiled_attention_backward.cpp), against a case worked by hand,
// the autodiff through chapter 03's attention (tests/08_attention_at_scale/chapter03_reference.hpp)
// and central differences of the tiled forward pass (exercise 08.2's reference).
#include "chapters/08_attention_at_scale/tiled_attention_backward.hpp"
#include "chapters/08_attention_at_scale/tiled_attention_forward.hpp"
#include "tests/08_attention_at_scale/chapter03_reference.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradients.hpp"
#include "tests/support/property.hpp"

#include <cmath>
#include <string>
#include <vector>

using attn::Tensor3;
using attn::ch08::AttentionGradients;
using attn::ch08::Blocks;
using attn::ch08::KeyMask;

namespace {

// Two ways of summing the same products in double.
constexpr double same_in_double = 1e-10;
// The gradient check's threshold for a chain of ops (tests/support/gradcheck.hpp).
constexpr double numerical_tolerance = 1e-6;
// Float against double, relative to the largest gradient: a few ulps over up to 300 terms.
constexpr double float_tolerance = 1e-4;

const std::vector<Blocks> block_choices = {{1, 1}, {4, 6}, {12, 12}, {5, 7}, {3, 5}, {7, 2}, {256, 256}};

// The gradients of sum(O * dO) by exercise 08.3, after the forward pass of 08.2.
template <class T>
AttentionGradients<T> tiled_gradients(const Tensor3<T>& Q, const Tensor3<T>& K, const Tensor3<T>& V, const Tensor3<T>& dO,
                                      const KeyMask& mask, const Blocks& blocks) {
    const attn::ch08::TiledAttention<T> forward = attn::ch08::tiled_attention_forward(Q, K, V, mask, blocks);
    return attn::ch08::tiled_attention_backward(Q, K, V, forward, dO, mask, blocks);
}

void check_equal(const AttentionGradients<double>& actual, const AttentionGradients<double>& expected, double tolerance) {
    CHECK_ALLCLOSE(actual.dQ, expected.dQ, tolerance, tolerance);
    CHECK_ALLCLOSE(actual.dK, expected.dK, tolerance, tolerance);
    CHECK_ALLCLOSE(actual.dV, expected.dV, tolerance, tolerance);
}

}  // namespace

TEST_CASE("08.3 tiled_attention_backward" * doctest::test_suite("ch08")) {
    const Tensor3<double> Q = ref08::random3(2, 12, 4, 11), K = ref08::random3(2, 12, 4, 12), V = ref08::random3(2, 12, 3, 13);
    const Tensor3<double> dO = ref08::random3(2, 12, 3, 14);   // a random upstream gradient
    const KeyMask padded{false, {12, 5}}, causal{true, {}}, causal_padded{true, {7, 12}};
    // The tiled gradients against the autodiff's through chapter 03, same mask, every blocking.
    const auto check_every_blocking = [&](const KeyMask& mask) {
        const AttentionGradients<double> expected = ref08::attention_gradients(Q, K, V, dO, mask);
        for (const Blocks& blocks : block_choices) {
            INFO(ref08::describe(blocks));
            check_equal(tiled_gradients(Q, K, V, dO, mask, blocks), expected, same_in_double);
        }
    };

    PROPERTY("a case worked by hand: one query, scores 1 and 0, dO = [1, 0]") {
        // p = softmax([1, 0]) = [e/(e+1), 1/(e+1)] = [0.731059, 0.268941]; V = I so O = p.
        // dV = p^T dO = [[p0, 0], [p1, 0]];  dP = dO V^T = [1, 0];  D = dO . O = p0;
        // dS = p * (dP - D) = [p0 (1 - p0), -p1 p0] = [0.196612, -0.196612];
        // dQ = dS K / 2 = [0.098306, 0, 0, 0];  dK = dS^T q / 2 = [[0.196612, 0, 0, 0], [-0.196612, 0, 0, 0]].
        const Tensor3<double> q = {{{2.0, 0.0, 0.0, 0.0}}}, k = {{{1.0, 0.0, 0.0, 0.0}, {0.0, 0.0, 0.0, 0.0}}};
        const Tensor3<double> v = {{{1.0, 0.0}, {0.0, 1.0}}}, d_out = {{{1.0, 0.0}}};
        const double e = std::exp(1.0), p0 = e / (e + 1), p1 = 1 / (e + 1), ds = p0 * p1;
        for (const Blocks& blocks : {Blocks{1, 1}, Blocks{}}) {
            INFO(ref08::describe(blocks));
            const AttentionGradients<double> g = tiled_gradients(q, k, v, d_out, {}, blocks);
            CHECK_ALLCLOSE(g.dV, Tensor3<double>({{{p0, 0.0}, {p1, 0.0}}}), 1e-15, 1e-15);
            CHECK_ALLCLOSE(g.dQ, Tensor3<double>({{{ds / 2, 0.0, 0.0, 0.0}}}), 1e-14, 1e-15);
            CHECK_ALLCLOSE(g.dK, Tensor3<double>({{{ds, 0.0, 0.0, 0.0}, {-ds, 0.0, 0.0, 0.0}}}), 1e-14, 1e-15);
        }
    };
    PROPERTY("the gradients have the inputs' shapes") {
        const Tensor3<double> Kx = ref08::random3(2, 17, 4, 5), Vx = ref08::random3(2, 17, 3, 6);
        const AttentionGradients<double> g = tiled_gradients(Q, Kx, Vx, dO, {}, {5, 4});
        REQUIRE_SHAPE(g.dQ.shape(), {2, 12, 4});
        REQUIRE_SHAPE(g.dK.shape(), {2, 17, 4});
        REQUIRE_SHAPE(g.dV.shape(), {2, 17, 3});
    };
    PROPERTY("without a mask: the autodiff's gradients through chapter 03, for blocks that divide n and that do not") {
        check_every_blocking({});
    };
    PROPERTY("causal: the autodiff's gradients through chapter 03 with causal_mask, for every blocking") {
        check_every_blocking(causal);
    };
    PROPERTY("valid lengths: the autodiff's gradients with length_mask; the padding gets exactly zero gradient") {
        const AttentionGradients<double> expected = ref08::attention_gradients(Q, K, V, dO, padded);
        for (const Blocks& blocks : block_choices) {
            INFO(ref08::describe(blocks));
            const AttentionGradients<double> g = tiled_gradients(Q, K, V, dO, padded, blocks);
            check_equal(g, expected, same_in_double);
            CHECK(xt::all(xt::equal(xt::view(g.dK, 1, xt::range(5, 12), xt::all()), 0.0)));
            CHECK(xt::all(xt::equal(xt::view(g.dV, 1, xt::range(5, 12), xt::all()), 0.0)));
        }
    };
    PROPERTY("causal and valid lengths together: the autodiff's gradients with the two masks joined") {
        check_every_blocking(causal_padded);
    };
    PROPERTY("central differences of the forward pass agree, with and without the causal mask") {
        const Tensor3<double> q = ref08::random3(2, 5, 3, 21), k = ref08::random3(2, 5, 3, 22), v = ref08::random3(2, 5, 4, 23);
        const Tensor3<double> d_out = ref08::random3(2, 5, 4, 24);
        for (const KeyMask& mask : {KeyMask{false, {5, 3}}, KeyMask{true, {}}}) {
            INFO((mask.causal ? "causal" : "valid lengths 5, 3"));
            const Blocks blocks{2, 3};
            const AttentionGradients<double> g = tiled_gradients(q, k, v, d_out, mask, blocks);
            // L(Q, K, V) = sum(O * dO), one input varied at a time
            const auto loss = [&](const Tensor3<double>& Qx, const Tensor3<double>& Kx, const Tensor3<double>& Vx) {
                const Tensor3<double> O = attn::ch08::tiled_attention_forward(Qx, Kx, Vx, mask, blocks).output;
                return xt::sum(O * d_out)();
            };
            const xt::xarray<double> dQ = support::numerical_gradient([&](const xt::xarray<double>& x) { return loss(x, k, v); }, q);
            const xt::xarray<double> dK = support::numerical_gradient([&](const xt::xarray<double>& x) { return loss(q, x, v); }, k);
            const xt::xarray<double> dV = support::numerical_gradient([&](const xt::xarray<double>& x) { return loss(q, k, x); }, v);
            CHECK(attn::max_relative_error(g.dQ, dQ) < numerical_tolerance);
            CHECK(attn::max_relative_error(g.dK, dK) < numerical_tolerance);
            CHECK(attn::max_relative_error(g.dV, dV) < numerical_tolerance);
        }
    };
    PROPERTY("float32 over 300 queries and keys with the default tiles: the double gradients to float's rounding") {
        const Tensor3<double> q = ref08::random3(1, 300, 8, 31), k = ref08::random3(1, 300, 8, 32), v = ref08::random3(1, 300, 6, 33);
        const Tensor3<double> d_out = ref08::random3(1, 300, 6, 34);
        const AttentionGradients<double> g = tiled_gradients(q, k, v, d_out, causal, {});
        const AttentionGradients<float> gf = tiled_gradients<float>(xt::cast<float>(q), xt::cast<float>(k), xt::cast<float>(v),
                                                                   xt::cast<float>(d_out), causal, {});
        CHECK(attn::max_relative_error(xt::cast<double>(gf.dQ), g.dQ) < float_tolerance);
        CHECK(attn::max_relative_error(xt::cast<double>(gf.dK), g.dK) < float_tolerance);
        CHECK(attn::max_relative_error(xt::cast<double>(gf.dV), g.dV) < float_tolerance);
    };
    PROPERTY("a sequence of valid length 0 gets zero gradients, never NaN") {
        const KeyMask empty{false, {0, 12}};
        const AttentionGradients<double> g = tiled_gradients(Q, K, V, dO, empty, {5, 7});
        CHECK(xt::all(xt::equal(xt::view(g.dQ, 0), 0.0)));
        CHECK(xt::all(xt::equal(xt::view(g.dK, 0), 0.0)));
        CHECK(xt::all(xt::equal(xt::view(g.dV, 0), 0.0)));
        CHECK(xt::all(xt::isfinite(g.dQ)));
    };
    PROPERTY("a dO or a forward result of the wrong shape is refused in one line") {
        const attn::ch08::TiledAttention<double> forward = attn::ch08::tiled_attention_forward(Q, K, V);
        const Tensor3<double> short_dO = xt::view(dO, xt::all(), xt::range(0, 11), xt::all());
        CHECK_THROWS_WITH_AS(attn::ch08::tiled_attention_backward(Q, K, V, forward, short_dO),
                             doctest::Contains("dO (2, 11, 3)"), std::invalid_argument);
        CHECK_THROWS_WITH_AS(attn::ch08::tiled_attention_backward(Q, K, V, forward, dO, {}, {2, 0}),
                             doctest::Contains("block sizes must be at least 1"), std::invalid_argument);
    };
}
