// Self-checks for exercise 02.3: additive_attention (exercises/02_bahdanau_attention/additive_attention.cpp).
#include "chapters/02_bahdanau_attention/additive_attention.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/02_bahdanau_attention/golden.hpp"
#include "tests/support/check_allclose.hpp"

using attn::Var;
using A = xt::xarray<double>;

namespace {
constexpr double golden_tol = 1e-12;
}

TEST_CASE("02.3 additive_attention" * doctest::test_suite("ch02")) {
    for (const std::string prefix : {"attn_batch_", "attn_query_"}) {
        CAPTURE(prefix);
        attn::Rng rng(2);
        attn::ch02::AdditiveAttention<double> layer(4, 6, 7, rng);
        golden02::set_weights(layer, prefix);
        const Var<double> queries = attn::parameter<double>(golden02::load(prefix + "queries"));
        const Var<double> keys = attn::parameter<double>(golden02::load(prefix + "keys"));
        const Var<double> values = attn::parameter<double>(golden02::load(prefix + "values"));
        const xt::xarray<std::int64_t> lens = golden02::load_ids(prefix + "valid_lens");
        const attn::ch02::AttentionOutput<double> out =
            attn::ch02::additive_attention(queries, layer.project_keys(keys), values, lens, layer);
        REQUIRE(out.context.shape() == attn::Shape{2, 3, 3});
        REQUIRE(out.weights.shape() == attn::Shape{2, 3, 5});

        SUBCASE("weights and context match PyTorch on golden data") {
            CHECK_ALLCLOSE(out.weights.value(), golden02::load(prefix + "weights"), golden_tol, 1e-15);
            CHECK_ALLCLOSE(out.context.value(), golden02::load(prefix + "context"), golden_tol, golden_tol);
        }
        SUBCASE("the gradients match PyTorch's autograd") {
            attn::backward(attn::sum(out.context * attn::constant<double>(golden02::load(prefix + "R"))));
            CHECK_ALLCLOSE(queries.grad(), golden02::load(prefix + "dqueries"), golden_tol, golden_tol);
            CHECK_ALLCLOSE(keys.grad(), golden02::load(prefix + "dkeys"), golden_tol, golden_tol);
            CHECK_ALLCLOSE(values.grad(), golden02::load(prefix + "dvalues"), golden_tol, golden_tol);
            CHECK_ALLCLOSE(layer.W_q.weight.grad(), golden02::load(prefix + "dW_q"), golden_tol, golden_tol);
            CHECK_ALLCLOSE(layer.W_k.weight.grad(), golden02::load(prefix + "dW_k"), golden_tol, golden_tol);
            CHECK_ALLCLOSE(layer.w_v.weight.grad(), golden02::load(prefix + "dw_v"), golden_tol, golden_tol);
        }
        SUBCASE("the context is an average of the values: equal values give that value back") {
            A same = xt::zeros<double>({2, 5, 3});
            xt::view(same, xt::all(), xt::all(), 0) = 2.5;   // every value is (2.5, 0, 0)
            const A context = attn::ch02::additive_attention(queries, layer.project_keys(keys), attn::constant<double>(same),
                                                             xt::xarray<std::int64_t>{5, 5}, layer).context.value();
            CHECK_ALLCLOSE(xt::view(context, xt::all(), xt::all(), 0), 2.5 * xt::ones<double>({2, 3}), 1e-14, 0.0);
        }
        SUBCASE("values at padded positions do not reach the context") {
            A scrambled = golden02::load(prefix + "values");
            xt::view(scrambled, 1, xt::range(2, 5), xt::all()) = 1e6;   // batch 1 has 2 valid keys below
            const xt::xarray<std::int64_t> short_lens = xt::xarray<std::int64_t>{5, 2};
            const A before = attn::ch02::additive_attention(queries, layer.project_keys(keys), values, short_lens, layer).context.value();
            const A after = attn::ch02::additive_attention(queries, layer.project_keys(keys), attn::constant<double>(scrambled),
                                                           short_lens, layer).context.value();
            CHECK_ALLCLOSE(after, before, 0.0, 1e-12);
        }
    }
}
