// The grouped-query layer's parameters (grouped_query_layer.hpp) and part 5's conversions of a
// layer (key_sharing.hpp): names and shapes as PyTorch's, chapter 05's weights carried over,
// key/value heads averaged, and the classes of equal maps.
#include "chapters/08_attention_at_scale/grouped_query_attention.hpp"
#include "chapters/08_attention_at_scale/key_sharing.hpp"
#include "chapters/05_multi_head_attention/multi_head_attention.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/property.hpp"

#include "common/xtensor_compat.hpp"

#include <string>
#include <vector>

using attn::ch08::GroupedQueryAttention;
using A = xt::xarray<double>;

TEST_CASE("grouped-query layer: parameters and conversions" * doctest::test_suite("ch08")) {
    PROPERTY("the parameters are named and shaped as the PyTorch q_proj, k_proj, v_proj, o_proj (d 16, H 4, G 2)") {
        attn::Rng rng(1);
        const GroupedQueryAttention<double> layer(16, 4, 2, rng);
        // d_h = 16 / 4 = 4; the keys and values have G d_h = 8 features.
        const std::vector<std::pair<std::string, std::vector<std::size_t>>> expected = {
            {"q_proj.weight", {16, 16}}, {"q_proj.bias", {16}}, {"k_proj.weight", {8, 16}}, {"k_proj.bias", {8}},
            {"v_proj.weight", {8, 16}},  {"v_proj.bias", {8}},  {"o_proj.weight", {16, 16}}, {"o_proj.bias", {16}}};
        const auto named = layer.named_parameters();
        REQUIRE(named.size() == expected.size());
        for (std::size_t k = 0; k < named.size(); ++k) {
            CHECK(named[k].first == expected[k].first);
            CHECK(support::shape_text(named[k].second.shape()) == support::shape_text(expected[k].second));
        }
        CHECK(layer.head_size() == 4);
        CHECK(layer.group_size() == 2);
        // 2 x (16 x 16 + 16) for q_proj and o_proj, 2 x (8 x 16 + 8) for k_proj and v_proj
        CHECK(layer.parameter_count() == 2 * 272 + 2 * 136);
    };
    PROPERTY("copy_multi_head carries chapter 05's layer over: the same output and weights") {
        attn::Rng rng(2);
        attn::ch05::MultiHeadAttention<double> multi(8, 2, rng);
        multi.in_proj_bias.value() = support::random_array({24}, 3, 0.5);
        GroupedQueryAttention<double> grouped(8, 2, 2, rng);
        attn::ch08::copy_multi_head(multi, grouped);
        const attn::Var<double> x = attn::constant<double>(support::random_array({2, 3, 8}, 4));
        const auto expected = attn::ch05::multi_head_attention(multi, x, x, x);
        const auto got = attn::ch08::grouped_query_attention(grouped, x, x, x);
        CHECK_ALLCLOSE(got.output.value(), expected.output.value(), 1e-12, 1e-14);
        CHECK_ALLCLOSE(got.head_weights.value(), expected.head_weights.value(), 1e-12, 1e-14);
        GroupedQueryAttention<double> fewer(8, 2, 1, rng);
        CHECK_THROWS_AS(attn::ch08::copy_multi_head(multi, fewer), std::invalid_argument);
    };
    PROPERTY("pool_key_value_heads averages the rows of the heads it merges, and copies q_proj and o_proj") {
        attn::Rng rng(5);
        GroupedQueryAttention<double> four(8, 4, 4, rng), two(8, 4, 2, rng), one(8, 4, 1, rng);
        attn::ch08::pool_key_value_heads(four, two);
        attn::ch08::pool_key_value_heads(four, one);
        // d_h = 2: key/value head 1 of `two` is the mean of rows 4-5 and 6-7 (heads 2 and 3) of `four`.
        const A& W = four.k_proj.weight.value();
        const A head_2 = xt::view(W, xt::range(4, 6)), head_3 = xt::view(W, xt::range(6, 8));
        CHECK_ALLCLOSE(A(xt::view(two.k_proj.weight.value(), xt::range(2, 4))), A((head_2 + head_3) / 2.0), 1e-15, 0.0);
        const A& b = four.v_proj.bias.value();
        CHECK(one.v_proj.bias.value()(1) == doctest::Approx((b(1) + b(3) + b(5) + b(7)) / 4).epsilon(1e-14));
        CHECK_ALLCLOSE(two.q_proj.weight.value(), four.q_proj.weight.value(), 0.0, 0.0);
        CHECK_ALLCLOSE(one.o_proj.bias.value(), four.o_proj.bias.value(), 0.0, 0.0);
        CHECK_THROWS_AS(attn::ch08::pool_key_value_heads(two, four), std::invalid_argument);   // 4 does not divide 2
    };
    PROPERTY("with the same query for every head, heads of one key/value head draw one map, the others differ") {
        attn::Rng rng(6);
        GroupedQueryAttention<double> four(16, 4, 4, rng), two(16, 4, 2, rng);
        attn::ch08::same_query_for_every_head(four);
        attn::ch08::pool_key_value_heads(four, two);
        const attn::Var<double> x = attn::constant<double>(support::random_array({1, 6, 16}, 7, 2.0));
        const A w4 = xt::view(attn::ch08::grouped_query_attention(four, x, x, x).head_weights.value(), 0);
        const A w2 = xt::view(attn::ch08::grouped_query_attention(two, x, x, x).head_weights.value(), 0);
        using Classes = std::vector<std::vector<std::size_t>>;
        CHECK(attn::ch08::heads_with_equal_maps(w4, 1e-12) == Classes{{0}, {1}, {2}, {3}});
        CHECK(attn::ch08::heads_with_equal_maps(w2, 1e-12) == Classes{{0, 1}, {2, 3}});
        // Heads that are not neighbours can share a map too: the classes are not runs.
        A mixed = w4;
        xt::view(mixed, 3) = xt::view(w4, 0);
        CHECK(attn::ch08::heads_with_equal_maps(mixed, 1e-12) == Classes{{0, 3}, {1}, {2}});
    };
}
