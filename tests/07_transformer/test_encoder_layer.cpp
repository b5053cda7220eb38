// Self-checks for exercise 07.2: encoder_layer (exercises/07_transformer/encoder_layer.cpp).
#include "chapters/07_transformer/encoder_layer.hpp"
#include "chapters/05_multi_head_attention/multi_head_attention.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/07_transformer/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/property.hpp"

#include "common/xtensor_compat.hpp"

using attn::Var;
using attn::ch07::NormPlacement;
using A = xt::xarray<double>;

namespace {

using golden07::GoldenEncoderLayer;   // nn.TransformerEncoderLayer(16, 4, 32) with the script's weights
using golden07::placement_name;

// The position-wise feed-forward network, from the layer's own Linear modules and xtensor's max.
A feed_forward(const attn::ch07::TransformerEncoderLayer<double>& layer, const A& h) {
    const A hidden = xt::maximum(layer.linear1(attn::constant<double>(h)).value(), 0.0);
    return layer.linear2(attn::constant<double>(hidden)).value();
}

}  // namespace

TEST_CASE("07.2 encoder_layer" * doctest::test_suite("ch07")) {
    const A x = golden07::load("encoder_layer/x");
    const attn::ch03::Mask padding = golden07::load_mask("encoder_layer/key_padding");

    PROPERTY("post-norm: the residual goes inside the norm, norm1(x + self_attention(x)); the output is norm2(...) of a sum") {
        // Feed-forward silenced (linear2 zeroed), no padding: out = norm2(h + 0) with
        // h = norm1(x + SA(x)) (7.2). The residual added after the norm, x + norm1(SA(x)),
        // gives other rows. SA comes from chapter 05's attention with the layer's own weights.
        GoldenEncoderLayer golden(NormPlacement::post);
        golden07::silence_feed_forward(golden.layer.linear2);
        const Var<double> input = attn::constant<double>(x);
        const A attended = attn::ch05::multi_head_attention(golden.layer.self_attn, input, input, input).output.value();
        const A h = golden07::plain_layer_norm(A(x + attended), golden.layer.norm1);
        const A out = attn::ch07::encoder_layer(golden.layer, input).output.value();
        CHECK_ALLCLOSE(out, golden07::plain_layer_norm(h, golden.layer.norm2), 1e-12, 1e-13);
    };
    PROPERTY("with both sub-layers silenced, post-norm gives norm2(norm1(x)) and pre-norm gives x itself") {
        // Attention and feed-forward output exactly 0 (W_o, b_o, linear2 zeroed): what is left is
        // the wiring. Post-norm normalises after each residual addition (7.2); pre-norm only
        // normalises the sub-layers' inputs, so the residual path carries x through untouched (7.3).
        for (NormPlacement norm : {NormPlacement::post, NormPlacement::pre}) {
            CAPTURE(placement_name(norm));
            GoldenEncoderLayer golden(norm);
            golden07::silence(golden.layer.self_attn);
            golden07::silence_feed_forward(golden.layer.linear2);
            const A out = attn::ch07::encoder_layer(golden.layer, attn::constant<double>(x), padding).output.value();
            const A expected = norm == NormPlacement::post
                                   ? golden07::plain_layer_norm(golden07::plain_layer_norm(x, golden.layer.norm1),
                                                                golden.layer.norm2)
                                   : x;
            CHECK_ALLCLOSE(out, expected, 1e-12, 1e-13);
        }
    };
    PROPERTY("post-norm: with norm2's weight 1, every output row has mean mean(norm2.bias) and variance near 1") {
        // The block's last step normalises each position (7.2): whatever came before, the row
        // (y - bias) has mean 0 and variance var / (var + eps).
        GoldenEncoderLayer golden(NormPlacement::post);
        golden.layer.norm2.weight.value().fill(1.0);
        const A out = attn::ch07::encoder_layer(golden.layer, attn::constant<double>(x), padding).output.value();
        const A centred = out - golden.layer.norm2.bias.value();
        CHECK_ALLCLOSE(A(xt::mean(centred, {2})), A(xt::zeros<double>({2, 5})), 0.0, 1e-12);
        CHECK_ALLCLOSE(A(xt::mean(centred * centred, {2})), A(xt::ones<double>({2, 5})), 1e-3, 0.0);
    };
    PROPERTY("with self-attention silenced, the feed-forward sub-layer is linear2(relu(linear1(.))) at every position") {
        // post-norm: h = norm1(x), out = norm2(h + FFN(h));  pre-norm: out = x + FFN(norm2(x)).
        for (NormPlacement norm : {NormPlacement::post, NormPlacement::pre}) {
            CAPTURE(placement_name(norm));
            GoldenEncoderLayer golden(norm);
            const auto& layer = golden.layer;
            golden07::silence(golden.layer.self_attn);
            const A out = attn::ch07::encoder_layer(layer, attn::constant<double>(x), padding).output.value();
            A expected;
            if (norm == NormPlacement::post) {
                const A h = golden07::plain_layer_norm(x, layer.norm1);
                expected = golden07::plain_layer_norm(A(h + feed_forward(layer, h)), layer.norm2);
            } else {
                expected = x + feed_forward(layer, golden07::plain_layer_norm(x, layer.norm2));
            }
            CHECK_ALLCLOSE(out, expected, 1e-12, 1e-13);
        }
    };
    PROPERTY("padded keys get weight 0 and the real positions ignore what the padding holds") {
        // Sequence 1 has 3 words and 2 padding positions; change the padding's vectors.
        const GoldenEncoderLayer golden(NormPlacement::post);
        A changed = x;
        xt::view(changed, 1, xt::range(3, 5), xt::all()) = 7.0;
        const auto first = attn::ch07::encoder_layer(golden.layer, attn::constant<double>(x), padding);
        const auto second = attn::ch07::encoder_layer(golden.layer, attn::constant<double>(changed), padding);
        REQUIRE_SHAPE(first.self_weights.shape(), {2, 4, 5, 5});
        CHECK(xt::amax(xt::abs(xt::view(first.self_weights.value(), 1, xt::all(), xt::all(), xt::range(3, 5))))() == 0.0);
        CHECK_ALLCLOSE(A(xt::view(second.output.value(), 1, xt::range(0, 3), xt::all())),
                       A(xt::view(first.output.value(), 1, xt::range(0, 3), xt::all())), 1e-12, 1e-13);
    };
    PROPERTY("the self-attention weights are (batch, heads, n, n) and every row sums to 1") {
        const GoldenEncoderLayer golden(NormPlacement::pre);
        const auto result = attn::ch07::encoder_layer(golden.layer, attn::constant<double>(x));
        REQUIRE_SHAPE(result.self_weights.shape(), {2, 4, 5, 5});
        REQUIRE_SHAPE(result.output.shape(), {2, 5, 16});
        CHECK_ALLCLOSE(A(xt::sum(result.self_weights.value(), {3})), A(xt::ones<double>({2, 4, 5})), 1e-12, 0.0);
    };
    for (NormPlacement norm : {NormPlacement::post, NormPlacement::pre}) {
        const std::string name = placement_name(norm);
        PROPERTY(("it matches nn.TransformerEncoderLayer (key padding): output, the gradient of x and of every "
                  "parameter, " + name + "-norm").c_str()) {
            const GoldenEncoderLayer golden(norm);
            const Var<double> input = attn::parameter<double>(x);
            const Var<double> out = attn::ch07::encoder_layer(golden.layer, input, padding).output;
            golden07::check_against_pytorch(golden.layer, out, "encoder_layer", name + "_", {{"x", input}});
        };
    }
    PROPERTY("the gradient of x matches central differences, post-norm and pre-norm") {
        for (NormPlacement norm : {NormPlacement::post, NormPlacement::pre}) {
            CAPTURE(placement_name(norm));
            const GoldenEncoderLayer golden(norm);
            const support::GradcheckResult check = support::gradcheck(
                [&](const std::vector<Var<double>>& in) {
                    return attn::ch07::encoder_layer(golden.layer, in[0], padding).output;
                },
                {x});
            CHECK_MESSAGE(check.worst_error < 1e-7, check.report);
        }
    };
}
