// The multi-head attention layer's parameters: PyTorch's names, shapes and initialisation.
#include "chapters/05_multi_head_attention/multi_head_layer.hpp"
#include "tests/support/property.hpp"

#include <doctest/doctest.h>
#include "common/xtensor_compat.hpp"

#include <cmath>

TEST_CASE("MultiHeadAttention layer" * doctest::test_suite("ch05")) {
    PROPERTY("its parameters are named and shaped as torch.nn.MultiheadAttention's state_dict") {
        attn::Rng rng(1);
        const attn::ch05::MultiHeadAttention<double> layer(8, 2, rng);
        const auto named = layer.named_parameters();
        REQUIRE(named.size() == 4);
        CHECK(named[0].first == "in_proj_weight");
        CHECK(named[1].first == "in_proj_bias");
        CHECK(named[2].first == "out_proj.weight");
        CHECK(named[3].first == "out_proj.bias");
        REQUIRE_SHAPE(named[0].second.shape(), {24, 8});
        REQUIRE_SHAPE(named[1].second.shape(), {24});
        REQUIRE_SHAPE(named[2].second.shape(), {8, 8});
        REQUIRE_SHAPE(named[3].second.shape(), {8});
        // 4 d^2 + 4 d, whatever the number of heads: the heads share the d x d matrices.
        CHECK(layer.parameter_count() == 4 * 64 + 4 * 8);
        CHECK(layer.head_size() == 4);
    };
    PROPERTY("it starts as PyTorch does: Xavier-uniform in_proj_weight, zero biases") {
        attn::Rng rng(2);
        const attn::ch05::MultiHeadAttention<double> layer(16, 4, rng);
        const double bound = std::sqrt(6.0 / (16 + 48));
        CHECK(xt::amax(xt::abs(layer.in_proj_weight.value()))() <= bound);
        CHECK(xt::amax(xt::abs(layer.in_proj_weight.value()))() > 0.9 * bound);   // fills the range
        CHECK(xt::amax(xt::abs(layer.in_proj_bias.value()))() == 0.0);
        CHECK(xt::amax(xt::abs(layer.out_proj.bias.value()))() == 0.0);
    };
    PROPERTY("a model size that is not a multiple of the heads is refused") {
        attn::Rng rng(3);
        CHECK_THROWS_AS(attn::ch05::MultiHeadAttention<double>(10, 4, rng), std::invalid_argument);
        CHECK_THROWS_AS(attn::ch05::MultiHeadAttention<double>(8, 0, rng), std::invalid_argument);
    };
}
