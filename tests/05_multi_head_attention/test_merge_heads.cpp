// Self-checks for exercise 05.2: merge_heads (exercises/05_multi_head_attention/merge_heads.cpp).
#include "chapters/05_multi_head_attention/merge_heads.hpp"
#include "chapters/05_multi_head_attention/split_heads.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/05_multi_head_attention/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/property.hpp"

using attn::Var;
using A = xt::xarray<double>;

TEST_CASE("05.2 merge_heads" * doctest::test_suite("ch05")) {
    PROPERTY("two (2, 2) heads become one (1, 2, 4) input, each position's heads side by side") {
        // head 0 = [[1 2], [5 6]], head 1 = [[3 4], [7 8]] -> [[1 2 3 4], [5 6 7 8]]
        const A heads = golden03::t3({{{1, 2}, {5, 6}}, {{3, 4}, {7, 8}}});
        const Var<double> merged = attn::ch05::merge_heads(attn::constant<double>(heads), 2);
        REQUIRE_SHAPE(merged.shape(), {1, 2, 4});
        CHECK_ALLCLOSE(merged.value(), golden03::t3({{{1, 2, 3, 4}, {5, 6, 7, 8}}}), 0.0, 0.0);
    };
    PROPERTY("entries b * heads + h go back to batch entry b") {
        const A heads = golden03::t3({{{1, 2}}, {{3, 4}}, {{5, 6}}, {{7, 8}}});
        const Var<double> merged = attn::ch05::merge_heads(attn::constant<double>(heads), 2);
        REQUIRE_SHAPE(merged.shape(), {2, 1, 4});
        CHECK_ALLCLOSE(merged.value(), golden03::t3({{{1, 2, 3, 4}}, {{5, 6, 7, 8}}}), 0.0, 0.0);
    };
    PROPERTY("it is the exact inverse of split_heads, both ways, for every number of heads") {
        const A x = support::random_array({2, 3, 6}, 6);
        for (const std::size_t heads : {1, 2, 3, 6}) {
            const Var<double> split = attn::ch05::split_heads(attn::constant<double>(x), heads);
            CHECK_ALLCLOSE(attn::ch05::merge_heads(split, heads).value(), x, 0.0, 0.0);
            const A y = support::random_array({2 * heads, 3, 6 / heads}, 7);
            const Var<double> merged = attn::ch05::merge_heads(attn::constant<double>(y), heads);
            CHECK_ALLCLOSE(attn::ch05::split_heads(merged, heads).value(), y, 0.0, 0.0);
        }
    };
    PROPERTY("gradients flow back: dx[b * heads + h, i, k] = dmerged[b, i, h d_h + k]") {
        const Var<double> x = attn::parameter<double>(support::random_array({6, 2, 2}, 8));
        const A upstream = support::random_array({2, 2, 6}, 9);
        attn::backward(attn::ch05::merge_heads(x, 3), upstream);
        A expected = A::from_shape({6, 2, 2});
        for (std::size_t b = 0; b < 2; ++b)
            for (std::size_t h = 0; h < 3; ++h)
                for (std::size_t i = 0; i < 2; ++i)
                    for (std::size_t k = 0; k < 2; ++k) expected(b * 3 + h, i, k) = upstream(b, i, h * 2 + k);
        CHECK_ALLCLOSE(x.grad(), expected, 0.0, 0.0);
    };
    PROPERTY("a first axis that is not a multiple of the heads is refused") {
        const Var<double> x = attn::constant<double>(A(xt::zeros<double>({3, 2, 2})));
        CHECK_THROWS_AS(attn::ch05::merge_heads(x, 2), std::invalid_argument);
    };
}
