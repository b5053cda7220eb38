// Self-checks for exercise 03.4: causal_mask (exercises/03_queries_keys_values/causal_mask.cpp).
#include "chapters/03_queries_keys_values/causal_mask.hpp"
#include "tests/03_queries_keys_values/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/property.hpp"

using attn::ch03::Mask;

TEST_CASE("03.4 causal_mask" * doctest::test_suite("ch03")) {
    PROPERTY("a position sees itself: the diagonal is not blocked") {
        const Mask blocked = attn::ch03::causal_mask(2, 4);
        REQUIRE_SHAPE(blocked.shape(), {2, 4, 4});
        for (std::size_t i = 0; i < 4; ++i) CHECK_FALSE(blocked(0, i, i));
    };
    PROPERTY("a position never sees a later one, and always sees the earlier ones") {
        const Mask blocked = attn::ch03::causal_mask(2, 4);
        for (std::size_t i = 0; i < 4; ++i)
            for (std::size_t j = 0; j < 4; ++j) CHECK(blocked(1, i, j) == (j > i));
    };
    PROPERTY("worked by hand for n = 3") {
        const Mask expected = golden03::t3<bool>({{{false, true, true}, {false, false, true}, {false, false, false}}});
        CHECK(attn::ch03::causal_mask(1, 3) == expected);
    };
    PROPERTY("the first position sees only itself, the last sees everything") {
        const Mask blocked = attn::ch03::causal_mask(2, 4);
        CHECK(xt::sum(xt::cast<int>(!xt::view(blocked, 0, 0, xt::all())))() == 1);
        CHECK_FALSE(xt::any(xt::view(blocked, 0, 3, xt::all())));
    };
}
