// Self-checks for exercise 03.2: scaled_dot_product_attention
// (exercises/03_queries_keys_values/scaled_dot_product_attention.cpp).
#include "chapters/03_queries_keys_values/scaled_dot_product_attention.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/03_queries_keys_values/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/property.hpp"
#include "tests/support/gradcheck.hpp"

#include <cmath>

using attn::Var;
using attn::ch03::Mask;
using A = xt::xarray<double>;

namespace {

// The mask of golden case `name` ("batch" or "query"): keys at or past the valid length.
Mask golden_mask(const std::string& name) {
    const xt::xarray<std::int64_t> lens = golden03::load_ids("sdpa_" + name + "_valid_lens");
    Mask blocked = xt::zeros<bool>({std::size_t{2}, std::size_t{3}, std::size_t{5}});
    for (std::size_t b = 0; b < 2; ++b)
        for (std::size_t i = 0; i < 3; ++i)
            for (std::size_t j = 0; j < 5; ++j)
                blocked(b, i, j) = static_cast<std::int64_t>(j) >= (lens.dimension() == 1 ? lens(b) : lens(b, i));
    return blocked;
}

}  // namespace

TEST_CASE("03.2 scaled_dot_product_attention" * doctest::test_suite("ch03")) {
    const A queries = golden03::load("sdpa_queries"), keys = golden03::load("sdpa_keys");
    const A values = golden03::load("sdpa_values");

    PROPERTY("the values pass through unscaled: a query with one key returns that key's value exactly") {
        const Var<double> q = attn::constant<double>(golden03::t3({{{1.0, 2.0, 3.0, 4.0}}}));
        const Var<double> k = attn::constant<double>(golden03::t3({{{0.5, -1.0, 2.0, 0.0}}}));
        const Var<double> v = attn::constant<double>(golden03::t3({{{3.0, -7.0}}}));
        CHECK_ALLCLOSE(attn::ch03::scaled_dot_product_attention(q, k, v).output.value(), golden03::t3({{{3.0, -7.0}}}), 0.0, 0.0);
    };
    PROPERTY("the scores are Q K^T, queries along the rows: 3 queries over 5 keys give (batch, 3, 5) weights") {
        const auto result = attn::ch03::scaled_dot_product_attention(
            attn::constant<double>(queries), attn::constant<double>(keys), attn::constant<double>(values));
        REQUIRE_SHAPE(result.weights.shape(), {2, 3, 5});
        REQUIRE_SHAPE(result.output.shape(), {2, 3, 3});
    };
    PROPERTY("the softmax runs along the keys: without a mask, each query's weights sum to 1") {
        const A w = attn::ch03::scaled_dot_product_attention(attn::constant<double>(queries), attn::constant<double>(keys),
                                                             attn::constant<double>(values)).weights.value();
        CHECK_ALLCLOSE(xt::sum(w, {2}), xt::ones<double>({2, 3}), 1e-12, 1e-12);
    };
    PROPERTY("a case worked by hand: q.k = 2 and 0 in d = 4, scaled by 1/sqrt(4), give softmax([1, 0])") {
        // weights e / (e + 1) = 0.7311 and 1 / (e + 1) = 0.2689; values [1, 0] and [0, 1]
        const Var<double> q = attn::constant<double>(golden03::t3({{{2.0, 0.0, 0.0, 0.0}}}));
        const Var<double> k = attn::constant<double>(golden03::t3({{{1.0, 0.0, 0.0, 0.0}, {0.0, 0.0, 0.0, 0.0}}}));
        const Var<double> v = attn::constant<double>(golden03::t3({{{1.0, 0.0}, {0.0, 1.0}}}));
        const auto result = attn::ch03::scaled_dot_product_attention(q, k, v);
        const double e = std::exp(1.0);
        const A expected = {{{e / (e + 1), 1 / (e + 1)}}};
        CHECK_ALLCLOSE(result.weights.value(), expected, 1e-14, 0.0);
        CHECK_ALLCLOSE(result.output.value(), expected, 1e-14, 0.0);
    };
    PROPERTY("each query's weights sum to 1 over the allowed keys; blocked keys get exactly 0") {
        const Mask blocked = golden_mask("batch");
        const A w = attn::ch03::scaled_dot_product_attention(attn::constant<double>(queries), attn::constant<double>(keys),
                                                             attn::constant<double>(values), blocked).weights.value();
        REQUIRE(w.shape() == std::vector<std::size_t>{2, 3, 5});
        for (std::size_t b = 0; b < 2; ++b)
            for (std::size_t i = 0; i < 3; ++i) {
                double total = 0;
                for (std::size_t j = 0; j < 5; ++j) {
                    if (blocked(b, i, j)) CHECK(w(b, i, j) == 0.0);
                    total += w(b, i, j);
                }
                CHECK(total == doctest::Approx(1.0).epsilon(1e-12));
            }
    };
    PROPERTY("a query with every key blocked gets all-zero weights and a zero output, never NaN") {
        const auto result = attn::ch03::scaled_dot_product_attention(
            attn::constant<double>(queries), attn::constant<double>(keys), attn::constant<double>(values), golden_mask("query"));
        CHECK(xt::all(xt::isfinite(result.output.value())));
        CHECK(xt::amax(xt::abs(xt::view(result.weights.value(), 0, 2, xt::all())))() == 0.0);   // valid length 0
        CHECK(xt::amax(xt::abs(xt::view(result.output.value(), 0, 2, xt::all())))() == 0.0);
    };
    PROPERTY("permuting the keys and values together leaves the output unchanged") {
        const std::vector<std::size_t> order = {3, 0, 4, 1, 2};
        const A keys_p = xt::view(keys, xt::all(), xt::keep(order), xt::all());
        const A values_p = xt::view(values, xt::all(), xt::keep(order), xt::all());
        const auto plain = attn::ch03::scaled_dot_product_attention(
            attn::constant<double>(queries), attn::constant<double>(keys), attn::constant<double>(values));
        const auto permuted = attn::ch03::scaled_dot_product_attention(
            attn::constant<double>(queries), attn::constant<double>(keys_p), attn::constant<double>(values_p));
        CHECK_ALLCLOSE(permuted.output.value(), plain.output.value(), 1e-12, 1e-14);
    };
    PROPERTY("the output is a convex combination of the values: inside their range") {
        const A out = attn::ch03::scaled_dot_product_attention(attn::constant<double>(queries), attn::constant<double>(keys),
                                                               attn::constant<double>(values)).output.value();
        for (std::size_t b = 0; b < 2; ++b)
            for (std::size_t c = 0; c < 3; ++c) {
                const A column = xt::view(values, b, xt::all(), c);
                const double lo = xt::amin(column)(), hi = xt::amax(column)();
                for (std::size_t i = 0; i < 3; ++i) {
                    CHECK(out(b, i, c) >= lo - 1e-12);
                    CHECK(out(b, i, c) <= hi + 1e-12);
                }
            }
    };
    PROPERTY("blocked keys get zero gradient: what a query may not see cannot change its output") {
        const Var<double> k = attn::parameter<double>(keys), v = attn::parameter<double>(values);
        const auto result = attn::ch03::scaled_dot_product_attention(attn::constant<double>(queries), k, v, golden_mask("batch"));
        attn::backward(result.output, golden03::load("sdpa_doutput"));
        // batch entry 1 has valid length 2: keys 2, 3, 4 are padding
        CHECK(xt::amax(xt::abs(xt::view(k.grad(), 1, xt::range(2, 5), xt::all())))() == 0.0);
        CHECK(xt::amax(xt::abs(xt::view(v.grad(), 1, xt::range(2, 5), xt::all())))() == 0.0);
    };
    for (const std::string name : {"none", "batch", "query"}) {
        PROPERTY(("it matches PyTorch's output, weights and gradients, mask: " + name).c_str()) {
            const Var<double> q = attn::parameter<double>(queries), k = attn::parameter<double>(keys);
            const Var<double> v = attn::parameter<double>(values);
            const Mask blocked = name == "none" ? attn::ch03::no_mask() : golden_mask(name);
            const auto result = attn::ch03::scaled_dot_product_attention(q, k, v, blocked);
            CHECK_ALLCLOSE(result.weights.value(), golden03::load("sdpa_" + name + "_weights"), 1e-12, 1e-14);
            CHECK_ALLCLOSE(result.output.value(), golden03::load("sdpa_" + name + "_output"), 1e-12, 1e-14);
            attn::backward(result.output, golden03::load("sdpa_doutput"));
            CHECK_ALLCLOSE(q.grad(), golden03::load("sdpa_" + name + "_dqueries"), 1e-10, 1e-12);
            CHECK_ALLCLOSE(k.grad(), golden03::load("sdpa_" + name + "_dkeys"), 1e-10, 1e-12);
            CHECK_ALLCLOSE(v.grad(), golden03::load("sdpa_" + name + "_dvalues"), 1e-10, 1e-12);
        };
    }
    PROPERTY("causal self-attention matches PyTorch (queries and keys are the same tensor)") {
        const Var<double> x = attn::parameter<double>(golden03::load("causal_x"));
        const Var<double> v = attn::parameter<double>(golden03::load("causal_values"));
        Mask causal = xt::zeros<bool>({std::size_t{2}, std::size_t{4}, std::size_t{4}});
        for (std::size_t b = 0; b < 2; ++b)
            for (std::size_t i = 0; i < 4; ++i)
                for (std::size_t j = i + 1; j < 4; ++j) causal(b, i, j) = true;
        const auto result = attn::ch03::scaled_dot_product_attention(x, x, v, causal);
        CHECK_ALLCLOSE(result.weights.value(), golden03::load("causal_weights"), 1e-12, 1e-14);
        CHECK_ALLCLOSE(result.output.value(), golden03::load("causal_output"), 1e-12, 1e-14);
        attn::backward(result.output, golden03::load("causal_doutput"));
        CHECK_ALLCLOSE(x.grad(), golden03::load("causal_dx"), 1e-10, 1e-12);
        CHECK_ALLCLOSE(v.grad(), golden03::load("causal_dvalues"), 1e-10, 1e-12);
    };
    PROPERTY("its gradients match central differences (with a mask)") {
        const Mask blocked = golden_mask("batch");
        const support::GradcheckResult check = support::gradcheck(
            [&](const std::vector<Var<double>>& in) {
                return attn::ch03::scaled_dot_product_attention(in[0], in[1], in[2], blocked).output;
            },
            {queries, keys, values});
        CHECK_MESSAGE(check.worst_error < 1e-7, check.report);
    };
    PROPERTY("shapes that do not fit are refused") {
        const Var<double> q = attn::constant<double>(queries), k = attn::constant<double>(keys);
        const Var<double> v = attn::constant<double>(values);
        CHECK_THROWS_AS(attn::ch03::scaled_dot_product_attention(q, v, v), std::invalid_argument);   // d differs
        CHECK_THROWS_AS(attn::ch03::scaled_dot_product_attention(q, k, k, Mask(xt::zeros<bool>({2, 3, 4}))),
                        std::invalid_argument);
    };
}
