// Self-checks for exercise 02.3: additive_attention (exercises/02_bahdanau_attention/additive_attention.cpp).
#include "chapters/02_bahdanau_attention/additive_attention.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/02_bahdanau_attention/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/property.hpp"

using attn::Var;
using A = xt::xarray<double>;

namespace {
constexpr double golden_tol = 1e-12;

// One of the two golden cases: lengths per sentence ("attn_batch_") or per query ("attn_query_").
struct GoldenCase {
    std::string prefix;
    attn::Rng rng{2};
    attn::ch02::AdditiveAttention<double> layer{4, 6, 7, rng};
    Var<double> queries = attn::parameter<double>(golden02::load(prefix + "queries"));
    Var<double> keys = attn::parameter<double>(golden02::load(prefix + "keys"));
    Var<double> values = attn::parameter<double>(golden02::load(prefix + "values"));
    xt::xarray<std::int64_t> lens = golden02::load_ids(prefix + "valid_lens");

    explicit GoldenCase(const std::string& name) : prefix(name) { golden02::set_weights(layer, prefix); }

    attn::ch02::AttentionOutput<double> attend(const Var<double>& v, const xt::xarray<std::int64_t>& lengths) const {
        const attn::ch02::AttentionOutput<double> out = attn::ch02::additive_attention(queries, layer.project_keys(keys), v, lengths, layer);
        REQUIRE_SHAPE(out.context.shape(), {2, 3, 3});
        REQUIRE_SHAPE(out.weights.shape(), {2, 3, 5});
        return out;
    }
    attn::ch02::AttentionOutput<double> attend() const { return attend(values, lens); }
};
}  // namespace

TEST_CASE("02.3 additive_attention" * doctest::test_suite("ch02")) {
    // The targeted properties first, each named after the mistake that breaks it
    // (tests/mutants/02_bahdanau_attention/additive_attention.*); the golden tables last.
    const GoldenCase batch("attn_batch_");

    PROPERTY("the context averages the values with the weights, not the raw scores: equal values give that value back") {
        A same = xt::zeros<double>({2, 5, 3});
        xt::view(same, xt::all(), xt::all(), 0) = 2.5;   // every value is (2.5, 0, 0)
        const A context = batch.attend(attn::constant<double>(same), xt::xarray<std::int64_t>{5, 5}).context.value();
        CHECK_ALLCLOSE(xt::view(context, xt::all(), xt::all(), 0), 2.5 * xt::ones<double>({2, 3}), 1e-14, 0.0);
    };
    PROPERTY("the lengths mask the keys: values at padded positions do not reach the context") {
        A scrambled = golden02::load("attn_batch_values");
        xt::view(scrambled, 1, xt::range(2, 5), xt::all()) = 1e6;   // batch 1 has 2 valid keys below
        const xt::xarray<std::int64_t> short_lens = xt::xarray<std::int64_t>{5, 2};
        const A before = batch.attend(batch.values, short_lens).context.value();
        const A after = batch.attend(attn::constant<double>(scrambled), short_lens).context.value();
        CHECK_ALLCLOSE(after, before, 0.0, 1e-12);
    };
    for (const std::string prefix : {"attn_batch_", "attn_query_"}) {
        // One property per golden case: doctest tells them apart by name, not by loop turn.
        const std::string lengths = prefix == "attn_batch_" ? "one length per sentence" : "one length per query";
        PROPERTY(("weights and context match PyTorch on golden data (" + lengths + ")").c_str()) {
            const GoldenCase golden(prefix);
            const attn::ch02::AttentionOutput<double> out = golden.attend();
            CHECK_ALLCLOSE(out.weights.value(), golden02::load(prefix + "weights"), golden_tol, 1e-15);
            CHECK_ALLCLOSE(out.context.value(), golden02::load(prefix + "context"), golden_tol, golden_tol);
        };
        PROPERTY(("the gradients match PyTorch's autograd (" + lengths + ")").c_str()) {
            const GoldenCase golden(prefix);
            attn::backward(attn::sum(golden.attend().context * attn::constant<double>(golden02::load(prefix + "R"))));
            CHECK_ALLCLOSE(golden.queries.grad(), golden02::load(prefix + "dqueries"), golden_tol, golden_tol);
            CHECK_ALLCLOSE(golden.keys.grad(), golden02::load(prefix + "dkeys"), golden_tol, golden_tol);
            CHECK_ALLCLOSE(golden.values.grad(), golden02::load(prefix + "dvalues"), golden_tol, golden_tol);
            CHECK_ALLCLOSE(golden.layer.W_q.weight.grad(), golden02::load(prefix + "dW_q"), golden_tol, golden_tol);
            CHECK_ALLCLOSE(golden.layer.W_k.weight.grad(), golden02::load(prefix + "dW_k"), golden_tol, golden_tol);
            CHECK_ALLCLOSE(golden.layer.w_v.weight.grad(), golden02::load(prefix + "dw_v"), golden_tol, golden_tol);
        };
    }
}
