// Self-checks for exercise 03.3: length_mask (exercises/03_queries_keys_values/length_mask.cpp).
#include "chapters/03_queries_keys_values/length_mask.hpp"
#include "tests/03_queries_keys_values/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/property.hpp"

using attn::ch03::Mask;
using Ids = xt::xarray<std::int64_t>;

TEST_CASE("03.3 length_mask" * doctest::test_suite("ch03")) {
    PROPERTY("the mask runs along the keys: a full-length sentence blocks nothing, however many queries it has") {
        CHECK_FALSE(xt::any(attn::ch03::length_mask(Ids{2}, 4, 2)));
    };
    PROPERTY("positions count from 0: a length of 2 leaves keys 0 and 1 visible") {
        const Mask blocked = attn::ch03::length_mask(Ids{2}, 1, 4);
        REQUIRE(blocked.shape() == std::vector<std::size_t>{1, 1, 4});
        CHECK_FALSE(blocked(0, 0, 0));
        CHECK_FALSE(blocked(0, 0, 1));
        CHECK(blocked(0, 0, 2));
        CHECK(blocked(0, 0, 3));
    };
    PROPERTY("the mask runs along the keys: every query of a sentence sees the same keys") {
        const Mask blocked = attn::ch03::length_mask(Ids{3, 1}, 2, 4);   // worked by hand
        const Mask expected = golden03::t3<bool>({{{false, false, false, true}, {false, false, false, true}},
                               {{false, true, true, true}, {false, true, true, true}}});
        CHECK(blocked == expected);
    };
    PROPERTY("one length per query: row i follows valid_lens[b, i]") {
        const Mask blocked = attn::ch03::length_mask(Ids{{3, 1, 0}}, 3, 3);
        const Mask expected = golden03::t3<bool>({{{false, false, false}, {false, true, true}, {true, true, true}}});
        CHECK(blocked == expected);
    };
    PROPERTY("lengths 0 and n_k block everything and nothing") {
        CHECK(xt::all(attn::ch03::length_mask(Ids{0}, 2, 3)));
        CHECK_FALSE(xt::any(attn::ch03::length_mask(Ids{3}, 2, 3)));
    };
    PROPERTY("lengths of the wrong shape or out of range are refused") {
        CHECK_THROWS_AS(attn::ch03::length_mask(Ids{4}, 1, 3), std::invalid_argument);
        CHECK_THROWS_AS(attn::ch03::length_mask(Ids{-1}, 1, 3), std::invalid_argument);
        CHECK_THROWS_AS(attn::ch03::length_mask(Ids{{1, 2}}, 3, 3), std::invalid_argument);
    };
}
