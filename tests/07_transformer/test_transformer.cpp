// The whole encoder-decoder forward against torch.nn.Transformer: output and every gradient.
#include "chapters/07_transformer/transformer.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/07_transformer/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/property.hpp"

#include "common/xtensor_compat.hpp"

using attn::Var;
using attn::ch03::Mask;
using A = xt::xarray<double>;

namespace {

// nn.Transformer(16, 4, 2, 2, 32, dropout=0, batch_first=True) with the script's weights.
struct GoldenTransformer {
    attn::Rng rng{1};
    attn::ch07::Transformer<double> model{golden07::sizes(attn::ch07::NormPlacement::post, 2), rng};
    GoldenTransformer() { support::load_parameters(model, "07_transformer/transformer/"); }
};

}  // namespace

TEST_CASE("Transformer forward" * doctest::test_suite("ch07")) {
    const A source = golden07::load("transformer/source"), target = golden07::load("transformer/target");
    const Mask source_padding = golden07::load_mask("transformer/source_padding");
    const Mask target_mask = golden07::load_mask("transformer/target_mask");
    const Mask target_padding = golden07::load_mask("transformer/target_padding");

    PROPERTY("it matches nn.Transformer (2 + 2 layers, all masks): output, the gradients of source, target and all 64 parameters") {
        const GoldenTransformer golden;
        const Var<double> src = attn::parameter<double>(source), tgt = attn::parameter<double>(target);
        const auto result = attn::ch07::transformer_forward(golden.model, src, tgt, source_padding, target_padding,
                                                            target_mask, source_padding);
        CHECK(golden.model.named_parameters().size() == 64);
        golden07::check_against_pytorch(golden.model, result.output, "transformer", "",
                                        {{"source", src}, {"target", tgt}});
    };
    PROPERTY("it keeps every layer's attention weights, and the memory is the encoder's normalised output") {
        const GoldenTransformer golden;
        const auto encoded = attn::ch07::encode(golden.model, attn::constant<double>(source), source_padding);
        REQUIRE(encoded.self_weights.size() == 2);
        REQUIRE_SHAPE(encoded.self_weights[1].shape(), {2, 4, 6, 6});
        REQUIRE_SHAPE(encoded.memory.shape(), {2, 6, 16});
        const auto result = attn::ch07::decode(golden.model, encoded, attn::constant<double>(target), target_padding,
                                               target_mask, source_padding);
        REQUIRE(result.self_weights.size() == 2);
        REQUIRE(result.cross_weights.size() == 2);
        REQUIRE_SHAPE(result.self_weights[0].shape(), {2, 4, 5, 5});
        REQUIRE_SHAPE(result.cross_weights[1].shape(), {2, 4, 5, 6});
        // encoder.norm's output rows: mean(bias) after normalising with weight w is not a
        // constant, but with the norm's weight and bias known the row is recovered exactly.
        const auto& norm = golden.model.encoder.norm;
        const A normalised = (encoded.memory.value() - norm.bias.value()) / norm.weight.value();
        CHECK_ALLCLOSE(A(xt::mean(normalised, {2})), A(xt::zeros<double>({2, 6})), 0.0, 1e-12);
    };
    PROPERTY("in float it agrees with the double computation to float's precision") {
        const GoldenTransformer golden;
        attn::Rng rng(5);
        const attn::ch07::Transformer<float> single(golden07::sizes(attn::ch07::NormPlacement::post, 2), rng);
        const auto from = golden.model.named_parameters();
        auto to = single.named_parameters();
        REQUIRE(from.size() == to.size());
        for (std::size_t i = 0; i < from.size(); ++i) to[i].second.value() = xt::cast<float>(from[i].second.value());
        const auto as_float = [](const A& a) { return attn::constant<float>(xt::xarray<float>(xt::cast<float>(a))); };
        const auto result = attn::ch07::transformer_forward(single, as_float(source), as_float(target), source_padding,
                                                            target_padding, target_mask, source_padding);
        CHECK_ALLCLOSE(result.output.value(), golden07::load("transformer/output"), 1e-4, 1e-5);
    };
}
