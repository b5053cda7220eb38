// Self-checks for exercise 05.1: split_heads (exercises/05_multi_head_attention/split_heads.cpp).
#include "chapters/05_multi_head_attention/split_heads.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/05_multi_head_attention/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/property.hpp"

using attn::Var;
using A = xt::xarray<double>;

TEST_CASE("05.1 split_heads" * doctest::test_suite("ch05")) {
    PROPERTY("two heads of a (1, 2, 4) input: head 0 takes features 0-1, head 1 features 2-3") {
        // x = [[1 2 3 4], [5 6 7 8]]: d 4, d_h 2. Head 0 is the first two columns, head 1
        // the last two, each a (2, 2) matrix of its own (not every other feature).
        const A x = golden03::t3({{{1, 2, 3, 4}, {5, 6, 7, 8}}});
        const Var<double> heads = attn::ch05::split_heads(attn::constant<double>(x), 2);
        REQUIRE_SHAPE(heads.shape(), {2, 2, 2});
        CHECK_ALLCLOSE(heads.value(), golden03::t3({{{1, 2}, {5, 6}}, {{3, 4}, {7, 8}}}), 0.0, 0.0);
    };
    PROPERTY("the heads of one batch entry sit together: entry b * heads + h") {
        // x (2, 1, 2) with 2 heads of one feature each (d_h = 1), so only the order of the
        // entries can go wrong: [1] [2] for batch entry 0, then [3] [4] for entry 1.
        const A x = golden03::t3({{{1, 2}}, {{3, 4}}});
        const Var<double> heads = attn::ch05::split_heads(attn::constant<double>(x), 2);
        REQUIRE_SHAPE(heads.shape(), {4, 1, 1});
        CHECK_ALLCLOSE(heads.value(), golden03::t3({{{1}}, {{2}}, {{3}}, {{4}}}), 0.0, 0.0);
    };
    PROPERTY("every entry follows (5.1): split(x)[b * heads + h, i, k] = x[b, i, h d_h + k]") {
        const A x = support::random_array({2, 3, 6}, 3);
        for (const std::size_t heads : {1, 2, 3, 6}) {
            const A split = attn::ch05::split_heads(attn::constant<double>(x), heads).value();
            const std::size_t d_h = 6 / heads;
            REQUIRE_SHAPE(split.shape(), {2 * heads, 3, d_h});
            A expected = A::from_shape({2 * heads, 3, d_h});
            for (std::size_t b = 0; b < 2; ++b)
                for (std::size_t h = 0; h < heads; ++h)
                    for (std::size_t i = 0; i < 3; ++i)
                        for (std::size_t k = 0; k < d_h; ++k) expected(b * heads + h, i, k) = x(b, i, h * d_h + k);
            CHECK_ALLCLOSE(split, expected, 0.0, 0.0);
        }
    };
    PROPERTY("gradients flow back: dx[b, i, h d_h + k] = dsplit[b * heads + h, i, k]") {
        const Var<double> x = attn::parameter<double>(support::random_array({2, 3, 4}, 4));
        const A upstream = support::random_array({4, 3, 2}, 5);
        attn::backward(attn::ch05::split_heads(x, 2), upstream);
        A expected = A::from_shape({2, 3, 4});
        for (std::size_t b = 0; b < 2; ++b)
            for (std::size_t h = 0; h < 2; ++h)
                for (std::size_t i = 0; i < 3; ++i)
                    for (std::size_t k = 0; k < 2; ++k) expected(b, i, h * 2 + k) = upstream(b * 2 + h, i, k);
        CHECK_ALLCLOSE(x.grad(), expected, 0.0, 0.0);
    };
    PROPERTY("a feature size that is not a multiple of the heads is refused") {
        const Var<double> x = attn::constant<double>(A(xt::zeros<double>({1, 2, 5})));
        CHECK_THROWS_AS(attn::ch05::split_heads(x, 2), std::invalid_argument);
        CHECK_THROWS_AS(attn::ch05::split_heads(attn::constant<double>(A(xt::zeros<double>({2, 4}))), 2),
                        std::invalid_argument);
    };
}
