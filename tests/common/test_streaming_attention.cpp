// streaming_attention (common/autodiff/ops_attention.cpp) against the composition it replaces,
// softmax(scale Q K^T + mask) V built from the engine's own ops, forward and backward, and
// against central differences. The sizes straddle the op's tiles (256 queries x 256 keys):
// 1, 7, 129 and 300 queries or keys give one partial tile or two tiles, the second one partial,
// whose running maximum must be carried from one to the next.
#include "common/autodiff/ops.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"

#include "common/xtensor_compat.hpp"

#include <cmath>
#include <limits>
#include <string>

using attn::Var;
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

// The unfused reference: scores = scale Q K^T (+ -inf above the diagonal), weights = softmax
// (as exp of log_softmax), output = weights V. It holds the whole (batch, n_q, n_k) matrix.
template <class T>
Var<T> unfused_attention(const Var<T>& Q, const Var<T>& K, const Var<T>& V, T scale, bool causal) {
    Var<T> scores = attn::bmm(Q, K, false, true) * scale;
    if (causal) {
        const std::size_t n = Q.shape(1);
        attn::Array<T> mask = xt::zeros<T>({std::size_t(1), n, n});
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = i + 1; j < n; ++j) mask(0, i, j) = -std::numeric_limits<T>::infinity();
        scores = scores + attn::constant<T>(mask);
    }
    return attn::bmm(attn::exp(attn::log_softmax(scores)), V);
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

TEST_CASE("streaming attention: the forward pass equals softmax(scale Q K^T + mask) V" * doctest::test_suite("common")) {
    std::uint64_t seed = 10;
    for (const Case& c : cases) {
        INFO(describe(c));
        const Inputs in = random_inputs(c, seed += 3);
        const double scale = 1.0 / std::sqrt(static_cast<double>(c.d));
        const Var<double> Q = leaf<double>(in.Q), K = leaf<double>(in.K), V = leaf<double>(in.V);
        const Var<double> streamed = attn::streaming_attention(Q, K, V, scale, c.causal);
        CHECK(streamed.shape() == attn::Shape{c.batch, c.n_q, c.d_v});
        CHECK_ALLCLOSE(streamed.value(), unfused_attention(Q, K, V, scale, c.causal).value(), 1e-12, 1e-12);

        const Var<float> Qf = leaf<float>(in.Q), Kf = leaf<float>(in.K), Vf = leaf<float>(in.V);
        const float scale_f = static_cast<float>(scale);
        CHECK_ALLCLOSE(attn::streaming_attention(Qf, Kf, Vf, scale_f, c.causal).value(),
                       unfused_attention(Qf, Kf, Vf, scale_f, c.causal).value(), 1e-5, 1e-5);
    }
}

TEST_CASE("streaming attention: dQ, dK, dV equal the unfused composition's gradients" * doctest::test_suite("common")) {
    std::uint64_t seed = 50;
    for (const Case& c : cases) {
        INFO(describe(c));
        const Inputs in = random_inputs(c, seed += 4);
        const A upstream = random_array({c.batch, c.n_q, c.d_v}, seed + 3);   // loss = sum(output * upstream)
        const double scale = 0.7 / std::sqrt(static_cast<double>(c.d));
        const Var<double> Q = leaf<double>(in.Q), K = leaf<double>(in.K), V = leaf<double>(in.V);
        const Var<double> Qr = leaf<double>(in.Q), Kr = leaf<double>(in.K), Vr = leaf<double>(in.V);
        attn::backward(attn::streaming_attention(Q, K, V, scale, c.causal), upstream);
        attn::backward(unfused_attention(Qr, Kr, Vr, scale, c.causal), upstream);
        CHECK_ALLCLOSE(Q.grad(), Qr.grad(), 1e-10, 1e-10);
        CHECK_ALLCLOSE(K.grad(), Kr.grad(), 1e-10, 1e-10);
        CHECK_ALLCLOSE(V.grad(), Vr.grad(), 1e-10, 1e-10);
    }
    SUBCASE("self-attention: one Var as Q, K and V gets the three gradients added") {
        const A X = random_array({2, 300, 6}, 7);
        const A upstream = random_array({2, 300, 6}, 8);
        const Var<double> x = leaf<double>(X), xr = leaf<double>(X);
        attn::backward(attn::streaming_attention(x, x, x, 0.4, true), upstream);
        attn::backward(unfused_attention(xr, xr, xr, 0.4, true), upstream);
        CHECK_ALLCLOSE(x.grad(), xr.grad(), 1e-10, 1e-10);
    }
    SUBCASE("only V wants a gradient") {
        const Case c{1, 129, 300, 4, 3, false};
        const Inputs in = random_inputs(c, 9);
        const Var<double> V = leaf<double>(in.V), Vr = leaf<double>(in.V);
        const Var<double> Q = attn::constant<double>(in.Q), K = attn::constant<double>(in.K);
        const A upstream = random_array({1, 129, 3}, 12);
        attn::backward(attn::streaming_attention(Q, K, V, 0.5, false), upstream);
        attn::backward(unfused_attention(Q, K, Vr, 0.5, false), upstream);
        CHECK_ALLCLOSE(V.grad(), Vr.grad(), 1e-10, 1e-10);
    }
}

TEST_CASE("streaming attention: gradients match central differences" * doctest::test_suite("common")) {
    for (const bool causal : {false, true}) {
        CAPTURE(causal);
        const Case c{2, 5, causal ? 5u : 6u, 3, 4, causal};
        const Inputs in = random_inputs(c, causal ? 31 : 37);
        const support::GradcheckResult r = support::gradcheck(
            [causal](const std::vector<Var<double>>& v) { return attn::streaming_attention(v[0], v[1], v[2], 0.8, causal); },
            {in.Q, in.K, in.V});
        INFO(r.report);
        CHECK(r.worst_error < 1e-7);
    }
}

TEST_CASE("streaming attention: huge scores stay finite (the running maximum protects exp)" * doctest::test_suite("common")) {
    // Scores up to 100 * 50 * 50 * d: exp of them overflows without subtracting the maximum.
    const Case c{1, 129, 300, 4, 3, false};
    Inputs in = random_inputs(c, 77);
    in.Q = xt::clip(in.Q * 20.0, -50.0, 50.0);
    in.K = xt::clip(in.K * 20.0, -50.0, 50.0);
    for (const bool causal : {false, true}) {
        CAPTURE(causal);
        const A K = causal ? A(xt::view(in.K, xt::all(), xt::range(0, 129), xt::all())) : in.K;
        const A V = causal ? A(xt::view(in.V, xt::all(), xt::range(0, 129), xt::all())) : in.V;
        const Var<float> Qf = leaf<float>(in.Q), Kf = leaf<float>(K), Vf = leaf<float>(V);
        const Var<float> out = attn::streaming_attention(Qf, Kf, Vf, 100.0f, causal);
        attn::backward(out, attn::Array<float>(xt::cast<float>(random_array({1, 129, 3}, 78))));
        CHECK(xt::all(xt::isfinite(out.value())));
        CHECK(xt::all(xt::isfinite(Qf.grad())));
        CHECK(xt::all(xt::isfinite(Kf.grad())));
        CHECK(xt::all(xt::isfinite(Vf.grad())));
        // Each output row is a convex combination of V's rows: inside their range.
        CHECK(xt::amax(out.value())() <= xt::amax(Vf.value())() + 1e-5f);
        CHECK(xt::amin(out.value())() >= xt::amin(Vf.value())() - 1e-5f);
        const Var<double> Q = leaf<double>(in.Q), Kd = leaf<double>(K), Vd = leaf<double>(V);
        CHECK_ALLCLOSE(attn::streaming_attention(Q, Kd, Vd, 100.0, causal).value(),
                       unfused_attention(Q, Kd, Vd, 100.0, causal).value(), 1e-12, 1e-12);
    }
}

TEST_CASE("streaming attention: shapes that do not fit are refused, naming them" * doctest::test_suite("common")) {
    const auto zeros = [](attn::Shape shape) { return attn::constant<double>(xt::zeros<double>(shape)); };
    const auto message = [&](attn::Shape q, attn::Shape k, attn::Shape v, bool causal) -> std::string {
        try {
            attn::streaming_attention(zeros(q), zeros(k), zeros(v), 1.0, causal);
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
