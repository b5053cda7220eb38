// tiled_attention (chapters/08_attention_at_scale/tiled_attention.cpp), exercises 08.2 and 08.3
// registered as one differentiable op, against the composition it replaces: chapter 03's
// scaled_dot_product_attention on the autodiff, forward and backward, and central differences.
// The sizes straddle the op's default tiles (256 queries x 256 keys): 1, 7, 129 and 300 queries
// or keys give one partial tile or two tiles, the second one partial, whose running maximum must
// be carried from one to the next. (This op was the toolkit's streaming_attention, tested in
// tests/common/, until chapter 08 took it over.)
#include "chapters/08_attention_at_scale/tiled_attention.hpp"
#include "tests/08_attention_at_scale/chapter03_reference.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"

#include "common/xtensor_compat.hpp"

#include <cmath>
#include <string>

using attn::Var;
using attn::ch08::KeyMask;
using support::random_array;
using A = xt::xarray<double>;

namespace {

struct Case {
    std::size_t batch, n_q, n_k, d, d_v;
    bool causal;
};

const Case cases[] = {
    {1, 1, 1, 4, 3, false},   {2, 7, 129, 5, 3, false}, {1, 129, 300, 8, 6, false}, {3, 300, 7, 4, 9, false},
    {1, 1, 1, 3, 2, true},    {2, 7, 7, 4, 5, true},     {2, 129, 129, 6, 5, true},  {1, 300, 300, 4, 4, true},
};

std::string describe(const Case& c) {
    return "batch " + std::to_string(c.batch) + ", n_q " + std::to_string(c.n_q) + ", n_k " + std::to_string(c.n_k) +
           ", d " + std::to_string(c.d) + ", d_v " + std::to_string(c.d_v) + (c.causal ? ", causal" : "");
}

// The composition: chapter 03's attention, which holds the whole (batch, n_q, n_k) matrix.
template <class T>
Var<T> composed_attention(const Var<T>& Q, const Var<T>& K, const Var<T>& V, const KeyMask& mask) {
    return attn::ch03::scaled_dot_product_attention(Q, K, V, attn::ch08::as_chapter03_mask(mask, Q.shape(0), Q.shape(1), K.shape(1)))
        .output;
}

struct Inputs {
    A Q, K, V;
};

Inputs random_inputs(const Case& c, std::uint64_t seed, double spread = 1.0) {
    return {random_array({c.batch, c.n_q, c.d}, seed, spread), random_array({c.batch, c.n_k, c.d}, seed + 1, spread),
            random_array({c.batch, c.n_k, c.d_v}, seed + 2)};
}

template <class T> Var<T> leaf(const A& values) { return attn::parameter<T>(attn::Array<T>(xt::cast<T>(values))); }

}  // namespace

TEST_CASE("tiled attention op: the forward pass equals chapter 03's attention" * doctest::test_suite("ch08")) {
    std::uint64_t seed = 10;
    for (const Case& c : cases) {
        INFO(describe(c));
        const Inputs in = random_inputs(c, seed += 3);
        const KeyMask mask{c.causal, {}};
        const Var<double> Q = leaf<double>(in.Q), K = leaf<double>(in.K), V = leaf<double>(in.V);
        const Var<double> tiled = attn::ch08::tiled_attention(Q, K, V, mask);
        CHECK(tiled.shape() == attn::Shape{c.batch, c.n_q, c.d_v});
        CHECK_ALLCLOSE(tiled.value(), composed_attention(Q, K, V, mask).value(), 1e-12, 1e-12);

        const Var<float> Qf = leaf<float>(in.Q), Kf = leaf<float>(in.K), Vf = leaf<float>(in.V);
        CHECK_ALLCLOSE(attn::ch08::tiled_attention(Qf, Kf, Vf, mask).value(), composed_attention(Qf, Kf, Vf, mask).value(),
                       1e-5, 1e-5);
    }
}

TEST_CASE("tiled attention op: dQ, dK, dV equal the autodiff's through chapter 03's attention" * doctest::test_suite("ch08")) {
    std::uint64_t seed = 50;
    for (const Case& c : cases) {
        INFO(describe(c));
        const Inputs in = random_inputs(c, seed += 4);
        const A upstream = random_array({c.batch, c.n_q, c.d_v}, seed + 3);   // loss = sum(output * upstream)
        const KeyMask mask{c.causal, {}};
        const Var<double> Q = leaf<double>(in.Q), K = leaf<double>(in.K), V = leaf<double>(in.V);
        const Var<double> Qr = leaf<double>(in.Q), Kr = leaf<double>(in.K), Vr = leaf<double>(in.V);
        attn::backward(attn::ch08::tiled_attention(Q, K, V, mask), upstream);
        attn::backward(composed_attention(Qr, Kr, Vr, mask), upstream);
        CHECK_ALLCLOSE(Q.grad(), Qr.grad(), 1e-10, 1e-10);
        CHECK_ALLCLOSE(K.grad(), Kr.grad(), 1e-10, 1e-10);
        CHECK_ALLCLOSE(V.grad(), Vr.grad(), 1e-10, 1e-10);
    }
    SUBCASE("self-attention: one Var as Q, K and V gets the three gradients added") {
        const A X = random_array({2, 300, 6}, 7);
        const A upstream = random_array({2, 300, 6}, 8);
        const Var<double> x = leaf<double>(X), xr = leaf<double>(X);
        attn::backward(attn::ch08::tiled_attention(x, x, x, {true, {}}), upstream);
        attn::backward(composed_attention(xr, xr, xr, {true, {}}), upstream);
        CHECK_ALLCLOSE(x.grad(), xr.grad(), 1e-10, 1e-10);
    }
    SUBCASE("only V wants a gradient; valid lengths and blocks of other sizes") {
        const Case c{2, 129, 300, 4, 3, false};
        const Inputs in = random_inputs(c, 9);
        const KeyMask mask{false, {300, 123}};
        const Var<double> V = leaf<double>(in.V), Vr = leaf<double>(in.V);
        const Var<double> Q = attn::constant<double>(in.Q), K = attn::constant<double>(in.K);
        const A upstream = random_array({2, 129, 3}, 12);
        attn::backward(attn::ch08::tiled_attention(Q, K, V, mask, {64, 100}), upstream);
        attn::backward(composed_attention(Q, K, Vr, mask), upstream);
        CHECK_ALLCLOSE(V.grad(), Vr.grad(), 1e-10, 1e-10);
    }
}

TEST_CASE("tiled attention op: gradients match central differences" * doctest::test_suite("ch08")) {
    for (const bool causal : {false, true}) {
        CAPTURE(causal);
        const Case c{2, 5, causal ? 5u : 6u, 3, 4, causal};
        const Inputs in = random_inputs(c, causal ? 31 : 37);
        const support::GradcheckResult r = support::gradcheck(
            [causal](const std::vector<Var<double>>& v) {
                return attn::ch08::tiled_attention(v[0], v[1], v[2], {causal, {}}, {2, 4});
            },
            {in.Q, in.K, in.V});
        INFO(r.report);
        CHECK(r.worst_error < 1e-7);
    }
}

TEST_CASE("tiled attention op: huge scores stay finite (the running maximum protects exp)" * doctest::test_suite("ch08")) {
    // Scores up to 50 * 50 * d / sqrt(d) * 50: exp of them overflows without subtracting the maximum.
    const Case c{1, 129, 300, 4, 3, false};
    Inputs in = random_inputs(c, 77);
    in.Q = xt::clip(in.Q * 20.0, -50.0, 50.0) * 50.0;
    in.K = xt::clip(in.K * 20.0, -50.0, 50.0);
    for (const bool causal : {false, true}) {
        CAPTURE(causal);
        const A K = causal ? A(xt::view(in.K, xt::all(), xt::range(0, 129), xt::all())) : in.K;
        const A V = causal ? A(xt::view(in.V, xt::all(), xt::range(0, 129), xt::all())) : in.V;
        const Var<float> Qf = leaf<float>(in.Q), Kf = leaf<float>(K), Vf = leaf<float>(V);
        const Var<float> out = attn::ch08::tiled_attention(Qf, Kf, Vf, {causal, {}});
        attn::backward(out, attn::Array<float>(xt::cast<float>(random_array({1, 129, 3}, 78))));
        CHECK(xt::all(xt::isfinite(out.value())));
        CHECK(xt::all(xt::isfinite(Qf.grad())));
        CHECK(xt::all(xt::isfinite(Kf.grad())));
        CHECK(xt::all(xt::isfinite(Vf.grad())));
        // Each output row is a convex combination of V's rows: inside their range.
        CHECK(xt::amax(out.value())() <= xt::amax(Vf.value())() + 1e-5f);
        CHECK(xt::amin(out.value())() >= xt::amin(Vf.value())() - 1e-5f);
        const Var<double> Q = leaf<double>(in.Q), Kd = leaf<double>(K), Vd = leaf<double>(V);
        CHECK_ALLCLOSE(attn::ch08::tiled_attention(Q, Kd, Vd, {causal, {}}).value(),
                       composed_attention(Q, Kd, Vd, {causal, {}}).value(), 1e-12, 1e-12);
    }
}

TEST_CASE("tiled attention op: shapes that do not fit are refused, naming them" * doctest::test_suite("ch08")) {
    const auto zeros = [](attn::Shape shape) { return attn::constant<double>(xt::zeros<double>(shape)); };
    const auto message = [&](attn::Shape q, attn::Shape k, attn::Shape v, bool causal) -> std::string {
        try {
            attn::ch08::tiled_attention(zeros(q), zeros(k), zeros(v), {causal, {}});
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return "no exception";
    };
    const std::string d_differs = message({2, 3, 4}, {2, 5, 3}, {2, 5, 6}, false);
    CHECK(d_differs.find("Q (2, 3, 4), K (2, 5, 3), V (2, 5, 6)") != std::string::npos);
    CHECK(message({2, 3, 4}, {2, 5, 4}, {2, 6, 6}, false).find("V (2, 6, 6)") != std::string::npos);   // n_k
    CHECK(message({2, 3, 4}, {1, 5, 4}, {1, 5, 6}, false).find("K (1, 5, 4)") != std::string::npos);   // batch
    CHECK(message({3, 4}, {5, 4}, {5, 6}, false).find("Q (3, 4)") != std::string::npos);               // rank
    CHECK(message({1, 0, 4}, {1, 0, 4}, {1, 0, 6}, false).find("K (1, 0, 4)") != std::string::npos);   // no keys
    const std::string causal = message({1, 3, 4}, {1, 5, 4}, {1, 5, 6}, true);
    CHECK(causal.find("n_q == n_k") != std::string::npos);
    CHECK(causal.find("Q (1, 3, 4)") != std::string::npos);
    CHECK(message({1, 5, 4}, {1, 5, 4}, {1, 5, 6}, true) == "no exception");
}
