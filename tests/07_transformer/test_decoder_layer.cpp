// Self-checks for exercise 07.3: decoder_layer (exercises/07_transformer/decoder_layer.cpp).
#include "chapters/07_transformer/decoder_layer.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/07_transformer/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/property.hpp"

#include <xtensor-blas/xlinalg.hpp>
#include "common/xtensor_compat.hpp"

#include <stdexcept>
#include <string>

using attn::Var;
using attn::ch03::Mask;
using attn::ch07::NormPlacement;
using A = xt::xarray<double>;

namespace {

using golden07::GoldenDecoderLayer;   // nn.TransformerDecoderLayer(16, 4, 32) with the script's weights
using golden07::placement_name;
using Layer = attn::ch07::TransformerDecoderLayer<double>;

// run()'s result; a shape the layer refuses is reported as the fault of `sub_layer`, the one
// part whose inputs the calling property lets vary (it gives the others nothing they could
// refuse). Other exceptions, the stub's "not implemented" among them, pass unchanged.
template <class Run>
attn::ch07::DecoderLayerOutput<double> blaming(const std::string& sub_layer, Run&& run) {
    try {
        return run();
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(sub_layer + ": " + e.what());
    }
}

}  // namespace

TEST_CASE("07.3 decoder_layer" * doctest::test_suite("ch07")) {
    // y: 2 target sequences of m = 4 (the second has 3 words); memory: n = 5 source positions
    // (the second sequence has 2 words).
    const A y = golden07::load("decoder_layer/y"), memory = golden07::load("decoder_layer/memory");
    const Mask causal = golden07::load_mask("decoder_layer/causal_mask");
    const Mask target_padding = golden07::load_mask("decoder_layer/target_padding");
    const Mask memory_padding = golden07::load_mask("decoder_layer/memory_padding");
    const auto forward = [](const Layer& layer, const A& target, const A& mem, const Mask& target_pad,
                            const Mask& self_mask, const Mask& memory_pad) {
        return attn::ch07::decoder_layer(layer, attn::constant<double>(target), attn::constant<double>(mem), target_pad,
                                         self_mask, memory_pad);
    };
    const auto run = [&](const Layer& layer, const A& target, const A& mem) {
        return forward(layer, target, mem, target_padding, causal, memory_padding);
    };
    const Mask none = attn::ch03::no_mask();
    using support::shape_text;

    // The first two properties check one attention each, the other one given nothing it could
    // refuse, so that a mistake is named by the sub-layer that makes it.
    PROPERTY("self-attention: weights (batch, heads, m, m), zero above the diagonal (causal) and on the target's padding") {
        // A memory as long as the target (its first m = 4 positions) and unpadded: however the
        // cross-attention mixed y, h1 and memory, no shape could clash there.
        const GoldenDecoderLayer golden(NormPlacement::post);
        const A short_memory = xt::view(memory, xt::all(), xt::range(0, 4), xt::all());   // (2, 4, 16)
        const std::string sub_layer = "self-attention, given target_padding " + shape_text(target_padding.shape()) +
                                      " as key padding and self_mask " + shape_text(causal.shape()) +
                                      " as attention mask";
        const auto result =
            blaming(sub_layer, [&] { return forward(golden.layer, y, short_memory, target_padding, causal, none); });
        REQUIRE_SHAPE(result.self_weights.shape(), {2, 4, 4, 4});
        const A w = result.self_weights.value();
        for (std::size_t i = 0; i < 4; ++i)
            for (std::size_t j = i + 1; j < 4; ++j) {
                INFO("self-attention: query " << i << " sees key " << j << " after it: pass self_mask as its attention "
                                                 "mask (the sixth argument of multi_head_attention)");
                CHECK(xt::amax(xt::abs(xt::view(w, xt::all(), xt::all(), i, j)))() == 0.0);
            }
        {
            INFO("self-attention: the padded word 3 of target sequence 1 is looked at: pass target_padding as its key "
                 "padding (the fifth argument of multi_head_attention)");
            CHECK(xt::amax(xt::abs(xt::view(w, 1, xt::all(), xt::all(), 3)))() == 0.0);
        }
        CHECK_ALLCLOSE(A(xt::sum(w, {3})), A(xt::ones<double>({2, 4, 4})), 1e-12, 0.0);
    };
    PROPERTY("cross-attention: keys and values from the memory, weights (batch, heads, m, n), zero on the memory's padding") {
        // No target masks here, so the self-attention has nothing to refuse.
        const GoldenDecoderLayer golden(NormPlacement::post);
        const auto unmasked =
            blaming("cross-attention, over memory " + shape_text(memory.shape()) + " with queries from y " +
                        shape_text(y.shape()) + ", no masks",
                    [&] { return forward(golden.layer, y, memory, none, none, none); });
        // Keys from y or h1 give one column per target position (m = 4) where the memory has n = 5.
        const bool keys_and_values_from_memory = shape_text(unmasked.cross_weights.shape()) != "(2, 4, 4, 4)";
        REQUIRE_MESSAGE(keys_and_values_from_memory,
                        "cross-attention: keys and values must be the encoder's memory (batch, n, d), not the "
                        "decoder's states: its weights are (batch, heads, m, m) = (2, 4, 4, 4), expected (batch, "
                        "heads, m, n) = (2, 4, 4, 5)");
        REQUIRE_SHAPE(unmasked.cross_weights.shape(), {2, 4, 4, 5});
        REQUIRE_SHAPE(unmasked.output.shape(), {2, 4, 16});
        const auto padded = blaming("cross-attention, given memory_padding " + shape_text(memory_padding.shape()) +
                                        " as key padding",
                                    [&] { return forward(golden.layer, y, memory, none, none, memory_padding); });
        const A w = padded.cross_weights.value();
        CHECK_ALLCLOSE(A(xt::sum(w, {3})), A(xt::ones<double>({2, 4, 4})), 1e-12, 0.0);
        INFO("cross-attention: the padded source positions 2-4 of sequence 1 are looked at: pass memory_padding as its "
             "key padding");
        CHECK(xt::amax(xt::abs(xt::view(w, 1, xt::all(), xt::all(), xt::range(2, 5))))() == 0.0);
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
    PROPERTY("the causal self-attention never looks ahead: no output moves with a later word") {
        const GoldenDecoderLayer golden(NormPlacement::post);
        const auto first = run(golden.layer, y, memory);
        A changed = y;
        xt::view(changed, 0, 3, xt::all()) = 5.0;   // the last word of sequence 0
        const A moved = run(golden.layer, changed, memory).output.value();
        CHECK_ALLCLOSE(A(xt::view(moved, 0, xt::range(0, 3), xt::all())),
                       A(xt::view(first.output.value(), 0, xt::range(0, 3), xt::all())), 1e-12, 1e-13);
    };
    for (NormPlacement norm : {NormPlacement::post, NormPlacement::pre}) {
        const std::string name = placement_name(norm);
        PROPERTY(("it matches nn.TransformerDecoderLayer (causal mask, target and memory padding): output, the "
                  "gradients of y, memory and every parameter, " + name + "-norm").c_str()) {
            const GoldenDecoderLayer golden(norm);
            const Var<double> target = attn::parameter<double>(y), mem = attn::parameter<double>(memory);
            const Var<double> out =
                attn::ch07::decoder_layer(golden.layer, target, mem, target_padding, causal, memory_padding).output;
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
                    return attn::ch07::decoder_layer(golden.layer, in[0], in[1], target_padding, causal, memory_padding)
                        .output;
                },
                {y, memory});
            CHECK_MESSAGE(check.worst_error < 1e-7, check.report);
        }
    };
}
