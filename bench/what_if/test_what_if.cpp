// The what-if kernels against the compositions they replace: the masked softmax must give
// exercise 03.2's weights and gradients bit for bit, the fused layer norm exercise 07.1's to
// rounding (and pass a numerical gradient check), or bench_transformer_fused times something else.
#include "bench/what_if/fused_ops.hpp"
#include "chapters/03_queries_keys_values/scaled_dot_product_attention.hpp"
#include "chapters/05_multi_head_attention/head_masks.hpp"
#include "chapters/07_transformer/layer_norm.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

using attn::Var;
using support::random_array;

namespace {
using F = xt::xarray<float>;

F random_float(const std::vector<std::size_t>& shape, std::uint64_t seed) {
    return xt::cast<float>(random_array(shape, seed, 2.0));
}

// Blocked keys: a causal pattern, plus one query (row 2 of sequence 1) that may see nothing.
attn::ch03::Mask some_blocked(std::size_t batch, std::size_t n_q, std::size_t n_k) {
    attn::ch03::Mask blocked = attn::ch03::Mask::from_shape({batch, n_q, n_k});
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t i = 0; i < n_q; ++i)
            for (std::size_t j = 0; j < n_k; ++j) blocked(b, i, j) = j > i + b || (b == 1 && i == 2);
    return blocked;
}

// Equal bit for bit: -0 differs from +0.
bool same_bits(const F& a, const F& b) {
    return a.shape() == b.shape() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}
}  // namespace

TEST_CASE("what-if: the masked softmax gives exercise 03.2's weights and gradients bit for bit" * doctest::test_suite("bench")) {
    const std::size_t batch = 3, n_q = 5, n_k = 21, d = 16;   // 21 keys: a whole 16-lane block and a tail
    for (const bool with_mask : {true, false}) {
        CAPTURE(with_mask);
        const attn::ch03::Mask blocked = with_mask ? some_blocked(batch, n_q, n_k) : attn::ch03::no_mask();
        const F q = random_float({batch, n_q, d}, 1), k = random_float({batch, n_k, d}, 2), v = random_float({batch, n_k, d}, 3);
        const F upstream = random_float({batch, n_q, d}, 4);
        Var<float> Q1 = attn::parameter<float>(q), K1 = attn::parameter<float>(k), V1 = attn::parameter<float>(v);
        const attn::ch03::Attention<float> composed = attn::ch03::scaled_dot_product_attention(Q1, K1, V1, blocked);
        attn::backward(attn::sum(composed.output * attn::constant<float>(upstream)));
        Var<float> Q2 = attn::parameter<float>(q), K2 = attn::parameter<float>(k), V2 = attn::parameter<float>(v);
        const float scale = 1.0f / std::sqrt(static_cast<float>(d));
        const Var<float> weights = attn::what_if::masked_softmax(attn::bmm(Q2 * scale, K2, false, true), blocked);
        attn::backward(attn::sum(attn::bmm(weights, V2) * attn::constant<float>(upstream)));
        CHECK(same_bits(weights.value(), composed.weights.value()));
        CHECK(same_bits(Q2.grad(), Q1.grad()));
        CHECK(same_bits(K2.grad(), K1.grad()));
        CHECK(same_bits(V2.grad(), V1.grad()));
        if (with_mask) CHECK(xt::all(xt::equal(xt::view(weights.value(), 1, 2, xt::all()), 0.0f)));   // sees nothing
    }
}

TEST_CASE("what-if: one mask per sequence serves every head as the repeated mask does" * doctest::test_suite("bench")) {
    const std::size_t batch = 2, heads = 3, n_q = 4, n_k = 6;
    const attn::ch03::Mask blocked = some_blocked(batch, n_q, n_k);
    const F scores = random_float({batch * heads, n_q, n_k}, 5), upstream = random_float({batch * heads, n_q, n_k}, 6);
    Var<float> s1 = attn::parameter<float>(scores), s2 = attn::parameter<float>(scores);
    const Var<float> repeated = attn::what_if::masked_softmax(s1, attn::ch05::repeat_for_heads(blocked, heads));
    const Var<float> shared = attn::what_if::masked_softmax(s2, blocked, heads);
    attn::backward(attn::sum(repeated * attn::constant<float>(upstream)));
    attn::backward(attn::sum(shared * attn::constant<float>(upstream)));
    CHECK(same_bits(shared.value(), repeated.value()));
    CHECK(same_bits(s2.grad(), s1.grad()));
    // Head 2 of sequence 1 (score rows 5 * 4 ...) obeys sequence 1's mask: its query 2 sees nothing.
    CHECK(xt::all(xt::equal(xt::view(shared.value(), 1 * heads + 2, 2, xt::all()), 0.0f)));
    CHECK_THROWS_AS(attn::what_if::masked_softmax(s2, blocked, 2), std::invalid_argument);   // 6 rows, not 2 heads' worth
    CHECK_THROWS_AS(attn::what_if::masked_softmax(s2, attn::ch03::Mask::from_shape({batch, n_q, n_k + 1}), heads),
                    std::invalid_argument);
}

TEST_CASE("what-if: the fused layer norm agrees with exercise 07.1 and with finite differences" * doctest::test_suite("bench")) {
    using A = xt::xarray<double>;
    const A x = random_array({3, 4, 19}, 7, 3.0), w = random_array({19}, 8), b = random_array({19}, 9);
    const A upstream = random_array({3, 4, 19}, 10);
    Var<double> x1 = attn::parameter<double>(x), w1 = attn::parameter<double>(w), b1 = attn::parameter<double>(b);
    Var<double> x2 = attn::parameter<double>(x), w2 = attn::parameter<double>(w), b2 = attn::parameter<double>(b);
    const Var<double> composed = attn::ch07::layer_norm(x1, w1, b1, 1, 1e-5);
    const Var<double> fused = attn::what_if::layer_norm(x2, w2, b2, 1e-5);
    attn::backward(attn::sum(composed * attn::constant<double>(upstream)));
    attn::backward(attn::sum(fused * attn::constant<double>(upstream)));
    CHECK_ALLCLOSE(fused.value(), composed.value(), 1e-12, 1e-12);
    CHECK_ALLCLOSE(x2.grad(), x1.grad(), 1e-11, 1e-11);
    CHECK_ALLCLOSE(w2.grad(), w1.grad(), 1e-11, 1e-11);
    CHECK_ALLCLOSE(b2.grad(), b1.grad(), 1e-11, 1e-11);
    const support::GradcheckResult r = support::gradcheck(
        [](const std::vector<Var<double>>& v) { return attn::what_if::layer_norm(v[0], v[1], v[2], 1e-5); },
        {random_array({2, 5, 7}, 11), random_array({7}, 12), random_array({7}, 13)});
    INFO(r.report);
    CHECK(r.worst_error < 1e-7);
    CHECK_THROWS_AS(attn::what_if::layer_norm(x1, attn::parameter<double>(A(xt::ones<double>({18}))), b1, 1e-5),
                    std::invalid_argument);
    CHECK_THROWS_AS(attn::what_if::layer_norm(attn::parameter<double>(A(xt::zeros<double>({2, 257}))),
                                              attn::parameter<double>(A(xt::ones<double>({257}))),
                                              attn::parameter<double>(A(xt::zeros<double>({257}))), 1e-5),
                    std::invalid_argument);
}
