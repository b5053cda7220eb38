// Self-checks for exercise 07.3: decoder_layer (exercises/07_transformer/decoder_layer.cpp).
#include "chapters/07_transformer/decoder_layer.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/07_transformer/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/property.hpp"

#include <xtensor-blas/xlinalg.hpp>
#include "common/xtensor_compat.hpp"

#include <string>

using attn::Var;
using attn::ch03::Mask;
using attn::ch07::NormPlacement;
using A = xt::xarray<double>;

namespace {

using golden07::GoldenDecoderLayer;   // nn.TransformerDecoderLayer(16, 4, 32) with the script's weights
using golden07::placement_name;

}  // namespace

TEST_CASE("07.3 decoder_layer" * doctest::test_suite("ch07")) {
    // y: 2 target sequences of m = 4 (the second has 3 words); memory: n = 5 source positions
    // (the second sequence has 2 words).
    const A y = golden07::load("decoder_layer/y"), memory = golden07::load("decoder_layer/memory");
    const Mask causal = golden07::load_mask("decoder_layer/causal_mask");
    const Mask target_padding = golden07::load_mask("decoder_layer/target_padding");
    const Mask memory_padding = golden07::load_mask("decoder_layer/memory_padding");
    const auto run = [&](const attn::ch07::TransformerDecoderLayer<double>& layer, const A& target, const A& mem) {
        return attn::ch07::decoder_layer(layer, attn::constant<double>(target), attn::constant<double>(mem), causal,
                                         target_padding, memory_padding);
    };

    PROPERTY("cross-attention keys and values come from the memory: weights (batch, heads, m, n), padded memory gets 0") {
        const GoldenDecoderLayer golden(NormPlacement::post);
        const auto result = run(golden.layer, y, memory);
        REQUIRE_SHAPE(result.cross_weights.shape(), {2, 4, 4, 5});
        REQUIRE_SHAPE(result.output.shape(), {2, 4, 16});
        CHECK_ALLCLOSE(A(xt::sum(result.cross_weights.value(), {3})), A(xt::ones<double>({2, 4, 4})), 1e-12, 0.0);
        CHECK(xt::amax(xt::abs(xt::view(result.cross_weights.value(), 1, xt::all(), xt::all(), xt::range(2, 5))))() ==
              0.0);
    };
    PROPERTY("with all three sub-layers silenced, post-norm gives norm3(norm2(norm1(y))) and pre-norm gives y itself") {
        for (NormPlacement norm : {NormPlacement::post, NormPlacement::pre}) {
            CAPTURE(placement_name(norm));
            INFO(std::string(norm == NormPlacement::post
                                 ? "post-norm: each residual goes inside its norm: norm1(y + SA(y)), norm2(h1 + CA(h1)), "
                                   "norm3(h2 + FFN(h2))"
                                 : "pre-norm: only the sub-layers' inputs are normalised; the residual path carries y "
                                   "untouched"));
            GoldenDecoderLayer golden(norm);
            auto& layer = golden.layer;
            golden07::silence(layer.self_attn);
            golden07::silence(layer.multihead_attn);
            golden07::silence_feed_forward(layer.linear2);
            const A expected =
                norm == NormPlacement::post
                    ? golden07::plain_layer_norm(
                          golden07::plain_layer_norm(golden07::plain_layer_norm(y, layer.norm1), layer.norm2), layer.norm3)
                    : y;
            CHECK_ALLCLOSE(run(layer, y, memory).output.value(), expected, 1e-12, 1e-13);
        }
    };
    PROPERTY("with every memory position equal to v, cross-attention adds out_proj(W_v v + b_v) to every target position") {
        // Pre-norm, self-attention and feed-forward silenced: out = y + CA(norm2(y)). Whatever the
        // weights, a query averaging identical values gets that value: its queries and keys
        // cannot matter, only the memory's values can.
        GoldenDecoderLayer golden(NormPlacement::pre);
        auto& layer = golden.layer;
        golden07::silence(layer.self_attn);
        golden07::silence_feed_forward(layer.linear2);
        const A v = golden07::load("decoder_layer/memory");
        A same = A::from_shape({2, 5, 16});
        for (std::size_t b = 0; b < 2; ++b)
            for (std::size_t j = 0; j < 5; ++j) xt::view(same, b, j, xt::all()) = xt::view(v, b, 0, xt::all());
        const A W_v = xt::view(layer.multihead_attn.in_proj_weight.value(), xt::range(32, 48), xt::all());
        const A b_v = xt::view(layer.multihead_attn.in_proj_bias.value(), xt::range(32, 48));
        const A first = xt::view(v, xt::all(), 0, xt::all());                                         // (2, 16)
        const A value = xt::linalg::dot(first, xt::transpose(W_v)) + b_v;                              // (2, 16)
        const A added = xt::linalg::dot(value, xt::transpose(layer.multihead_attn.out_proj.weight.value())) +
                        layer.multihead_attn.out_proj.bias.value();
        const A expected = y + xt::view(added, xt::all(), xt::newaxis(), xt::all());
        CHECK_ALLCLOSE(run(layer, y, same).output.value(), expected, 1e-12, 1e-13);
    };
    PROPERTY("the causal self-attention never looks ahead: zero weight above the diagonal, no output moves with a later word") {
        const GoldenDecoderLayer golden(NormPlacement::post);
        const auto first = run(golden.layer, y, memory);
        REQUIRE_SHAPE(first.self_weights.shape(), {2, 4, 4, 4});
        const A w = first.self_weights.value();
        for (std::size_t i = 0; i < 4; ++i)
            for (std::size_t j = i + 1; j < 4; ++j) {
                CAPTURE(i);
                CAPTURE(j);
                CHECK(xt::amax(xt::abs(xt::view(w, xt::all(), xt::all(), i, j)))() == 0.0);
            }
        A changed = y;
        xt::view(changed, 0, 3, xt::all()) = 5.0;   // the last word of sequence 0
        const A moved = run(golden.layer, changed, memory).output.value();
        CHECK_ALLCLOSE(A(xt::view(moved, 0, xt::range(0, 3), xt::all())),
                       A(xt::view(first.output.value(), 0, xt::range(0, 3), xt::all())), 1e-12, 1e-13);
    };
    PROPERTY("the target's padding gets weight 0 in the self-attention") {
        const GoldenDecoderLayer golden(NormPlacement::post);
        const A w = run(golden.layer, y, memory).self_weights.value();
        CHECK(xt::amax(xt::abs(xt::view(w, 1, xt::all(), xt::all(), 3)))() == 0.0);
        CHECK_ALLCLOSE(A(xt::sum(w, {3})), A(xt::ones<double>({2, 4, 4})), 1e-12, 0.0);
    };
    for (NormPlacement norm : {NormPlacement::post, NormPlacement::pre}) {
        const std::string name = placement_name(norm);
        PROPERTY(("it matches nn.TransformerDecoderLayer (causal mask, target and memory padding): output, the "
                  "gradients of y, memory and every parameter, " + name + "-norm").c_str()) {
            const GoldenDecoderLayer golden(norm);
            const Var<double> target = attn::parameter<double>(y), mem = attn::parameter<double>(memory);
            const Var<double> out =
                attn::ch07::decoder_layer(golden.layer, target, mem, causal, target_padding, memory_padding).output;
            golden07::check_against_pytorch(golden.layer, out, "decoder_layer", name + "_",
                                            {{"y", target}, {"memory", mem}});
        };
    }
    PROPERTY("the gradients of y and of the memory match central differences, post-norm and pre-norm") {
        for (NormPlacement norm : {NormPlacement::post, NormPlacement::pre}) {
            CAPTURE(placement_name(norm));
            const GoldenDecoderLayer golden(norm);
            const support::GradcheckResult check = support::gradcheck(
                [&](const std::vector<Var<double>>& in) {
                    return attn::ch07::decoder_layer(golden.layer, in[0], in[1], causal, target_padding, memory_padding)
                        .output;
                },
                {y, memory});
            CHECK_MESSAGE(check.worst_error < 1e-7, check.report);
        }
    };
}
