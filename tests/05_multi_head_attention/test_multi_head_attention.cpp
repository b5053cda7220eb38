// Self-checks for exercise 05.3: multi_head_attention
// (exercises/05_multi_head_attention/multi_head_attention.cpp).
#include "chapters/05_multi_head_attention/multi_head_attention.hpp"
#include "chapters/03_queries_keys_values/project_and_attend.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/05_multi_head_attention/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/property.hpp"

#include "common/xtensor_compat.hpp"

using attn::Var;
using A = xt::xarray<double>;
using attn::ch03::Mask;

namespace {

struct Case {
    std::string name;
    Mask key_padding, attention_mask;
};

std::vector<Case> golden_cases() {
    const Mask padding = golden05::load_mask("mha_key_padding"), causal = golden05::load_mask("mha_attention_mask");
    return {{"plain", attn::ch03::no_mask(), attn::ch03::no_mask()},
            {"padded", padding, attn::ch03::no_mask()},
            {"causal", attn::ch03::no_mask(), causal},
            {"both", padding, causal}};
}

}  // namespace

TEST_CASE("05.3 multi_head_attention" * doctest::test_suite("ch05")) {
    PROPERTY("one head with W_o = I and no biases is chapter 03's attention layer (3.10)") {
        // With a single head there is nothing to split, the scale is sqrt(d), and the layer
        // reduces to project_and_attend with W_q, W_k, W_v the blocks of in_proj_weight.
        attn::Rng rng(3);
        attn::ch05::MultiHeadAttention<double> layer(6, 1, rng);
        layer.out_proj.weight.value() = xt::eye<double>(6);
        layer.out_proj.bias.value().fill(0.0);
        layer.in_proj_bias.value().fill(0.0);
        attn::ch03::AttentionLayer<double> single({6, 6, 6, 6, 6}, rng);
        const A W = layer.in_proj_weight.value();
        single.W_q.weight.value() = xt::view(W, xt::range(0, 6), xt::all());
        single.W_k.weight.value() = xt::view(W, xt::range(6, 12), xt::all());
        single.W_v.weight.value() = xt::view(W, xt::range(12, 18), xt::all());
        const Var<double> q = attn::constant<double>(support::random_array({2, 3, 6}, 10));
        const Var<double> kv = attn::constant<double>(support::random_array({2, 4, 6}, 11));
        const auto multi = attn::ch05::multi_head_attention(layer, q, kv, kv);
        const auto one = attn::ch03::project_and_attend(single, q, kv, kv);
        CHECK_ALLCLOSE(multi.output.value(), one.output.value(), 1e-12, 1e-14);
        CHECK_ALLCLOSE(multi.averaged_weights.value(), one.weights.value(), 1e-12, 1e-14);
    };
    PROPERTY("2 heads, W_o = I, no biases: head h is chapter 03's attention on features [3h, 3h + 3), scores / sqrt(d_h)") {
        // d = 6, d_h = 3. Head h projects with rows [3h, 3h + 3) of W_q, W_k and W_v, i.e. a
        // chapter 03 layer with d_k = d_v = 3, which divides its scores by sqrt(3), not sqrt(6).
        // With W_o = I, head h's output is columns [3h, 3h + 3) of the layer's output.
        attn::Rng rng(5);
        const std::size_t d = 6, heads = 2, d_h = 3;
        attn::ch05::MultiHeadAttention<double> layer(d, heads, rng);
        layer.out_proj.weight.value() = xt::eye<double>(d);
        layer.out_proj.bias.value().fill(0.0);
        layer.in_proj_bias.value().fill(0.0);
        const A W = layer.in_proj_weight.value();
        const Var<double> q = attn::constant<double>(support::random_array({2, 3, 6}, 12));
        const Var<double> kv = attn::constant<double>(support::random_array({2, 4, 6}, 13));
        const auto multi = attn::ch05::multi_head_attention(layer, q, kv, kv);
        REQUIRE_SHAPE(multi.head_weights.shape(), {2, heads, 3, 4});
        REQUIRE_SHAPE(multi.output.shape(), {2, 3, d});
        for (std::size_t h = 0; h < heads; ++h) {
            CAPTURE(h);
            attn::ch03::AttentionLayer<double> head({d, d, d, d_h, d_h}, rng);
            const auto rows = [&](std::size_t part) {   // part 0, 1, 2: W_q, W_k, W_v
                return A(xt::view(W, xt::range(part * d + h * d_h, part * d + (h + 1) * d_h), xt::all()));
            };
            head.W_q.weight.value() = rows(0);
            head.W_k.weight.value() = rows(1);
            head.W_v.weight.value() = rows(2);
            const auto one = attn::ch03::project_and_attend(head, q, kv, kv);
            CHECK_ALLCLOSE(A(xt::view(multi.head_weights.value(), xt::all(), h)), one.weights.value(), 1e-12, 1e-14);
            CHECK_ALLCLOSE(A(xt::view(multi.output.value(), xt::all(), xt::all(), xt::range(h * d_h, (h + 1) * d_h))),
                           one.output.value(), 1e-12, 1e-14);
        }
    };
    PROPERTY("each head's rows sum to 1, blocked keys get weight exactly 0 in every head, and the average is their mean") {
        const golden05::GoldenLayer golden;
        const Mask padding = golden05::load_mask("mha_key_padding"), causal = golden05::load_mask("mha_attention_mask");
        const auto result = attn::ch05::multi_head_attention(
            golden.layer, attn::constant<double>(golden05::load("mha_query")),
            attn::constant<double>(golden05::load("mha_key")), attn::constant<double>(golden05::load("mha_value")),
            padding, causal);
        const A w = result.head_weights.value();
        REQUIRE_SHAPE(w.shape(), {2, 2, 4, 5});
        REQUIRE_SHAPE(result.averaged_weights.shape(), {2, 4, 5});
        REQUIRE_SHAPE(result.output.shape(), {2, 4, 8});
        CHECK_ALLCLOSE(xt::sum(w, {3}), xt::ones<double>({2, 2, 4}), 1e-12, 0.0);
        // Which mask blocks key j for query i of sequence b; empty when neither does.
        const auto blocked_by = [&](std::size_t b, std::size_t i, std::size_t j) -> std::string {
            if (padding(b, j) && causal(i, j)) return "both masks";
            if (padding(b, j)) return "the key-padding mask";
            return causal(i, j) ? "the attention mask" : "";
        };
        for (std::size_t b = 0; b < 2; ++b)
            for (std::size_t h = 0; h < 2; ++h)
                for (std::size_t i = 0; i < 4; ++i)
                    for (std::size_t j = 0; j < 5; ++j) {
                        const std::string by = blocked_by(b, i, j);
                        if (!by.empty())
                            CHECK_MESSAGE(w(b, h, i, j) == 0.0, "weight (b, h, i, j) = (" << b << ", " << h << ", "
                                                                    << i << ", " << j << "): key " << j
                                                                    << " is blocked by " << by);
                    }
        CHECK_ALLCLOSE(result.averaged_weights.value(), A(xt::mean(w, {1})), 1e-14, 1e-15);
    };
    PROPERTY("a query whose keys are all blocked gets zero weights in every head and the output b_o, never NaN") {
        const golden05::GoldenLayer golden;
        Mask blocked = xt::zeros<bool>({std::size_t{4}, std::size_t{5}});
        xt::view(blocked, 2, xt::all()) = true;   // query 2 may look at nothing
        const auto result = attn::ch05::multi_head_attention(
            golden.layer, attn::constant<double>(golden05::load("mha_query")),
            attn::constant<double>(golden05::load("mha_key")), attn::constant<double>(golden05::load("mha_value")),
            attn::ch03::no_mask(), blocked);
        CHECK(xt::amax(xt::abs(xt::view(result.head_weights.value(), xt::all(), xt::all(), 2, xt::all())))() == 0.0);
        for (std::size_t b = 0; b < 2; ++b)
            CHECK_ALLCLOSE(A(xt::view(result.output.value(), b, 2, xt::all())), golden05::load("mha_out_proj_bias"),
                           1e-15, 0.0);
    };
    for (const Case& c : golden_cases()) {
        PROPERTY(("it matches torch.nn.MultiheadAttention's output, per-head and averaged weights, masks: " + c.name)
                     .c_str()) {
            const golden05::GoldenLayer golden;
            const auto result = attn::ch05::multi_head_attention(
                golden.layer, attn::constant<double>(golden05::load("mha_query")),
                attn::constant<double>(golden05::load("mha_key")),
                attn::constant<double>(golden05::load("mha_value")), c.key_padding, c.attention_mask);
            const std::string prefix = "mha_" + c.name + "_";
            CHECK_ALLCLOSE(result.head_weights.value(), golden05::load(prefix + "head_weights"), 1e-12, 1e-14);
            CHECK_ALLCLOSE(result.averaged_weights.value(), golden05::load(prefix + "averaged_weights"), 1e-12, 1e-14);
            CHECK_ALLCLOSE(result.output.value(), golden05::load(prefix + "output"), 1e-12, 1e-14);
        };
        PROPERTY(("it matches PyTorch's gradients of the query, key, value and all four parameters, masks: " + c.name)
                     .c_str()) {
            const golden05::GoldenLayer golden;
            const auto& layer = golden.layer;
            const Var<double> query = attn::parameter<double>(golden05::load("mha_query"));
            const Var<double> key = attn::parameter<double>(golden05::load("mha_key"));
            const Var<double> value = attn::parameter<double>(golden05::load("mha_value"));
            const auto result =
                attn::ch05::multi_head_attention(layer, query, key, value, c.key_padding, c.attention_mask);
            attn::backward(result.output, golden05::load("mha_doutput"));
            const std::string prefix = "mha_" + c.name + "_";
            CHECK_ALLCLOSE(query.grad(), golden05::load(prefix + "dquery"), 1e-10, 1e-12);
            CHECK_ALLCLOSE(key.grad(), golden05::load(prefix + "dkey"), 1e-10, 1e-12);
            CHECK_ALLCLOSE(value.grad(), golden05::load(prefix + "dvalue"), 1e-10, 1e-12);
            CHECK_ALLCLOSE(layer.in_proj_weight.grad(), golden05::load(prefix + "din_proj_weight"), 1e-10, 1e-12);
            CHECK_ALLCLOSE(layer.in_proj_bias.grad(), golden05::load(prefix + "din_proj_bias"), 1e-10, 1e-12);
            CHECK_ALLCLOSE(layer.out_proj.weight.grad(), golden05::load(prefix + "dout_proj_weight"), 1e-10, 1e-12);
            CHECK_ALLCLOSE(layer.out_proj.bias.grad(), golden05::load(prefix + "dout_proj_bias"), 1e-10, 1e-12);
        };
    }
    PROPERTY("inputs and masks that do not fit are refused") {
        const golden05::GoldenLayer golden;
        const Var<double> query = attn::constant<double>(golden05::load("mha_query"));
        const Var<double> key = attn::constant<double>(golden05::load("mha_key"));
        const Var<double> narrow = attn::constant<double>(A(xt::zeros<double>({2, 5, 6})));   // d is 8
        CHECK_THROWS_AS(attn::ch05::multi_head_attention(golden.layer, query, narrow, narrow), std::invalid_argument);
        const Mask padding_of_queries = xt::zeros<bool>({2, 4});                               // n_k is 5
        CHECK_THROWS_AS(attn::ch05::multi_head_attention(golden.layer, query, key, key, padding_of_queries),
                        std::invalid_argument);
    };
}
