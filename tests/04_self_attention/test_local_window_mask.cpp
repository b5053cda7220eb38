// Self-checks for exercise 04.2: local_window_mask (exercises/04_self_attention/local_window_mask.cpp).
#include "chapters/04_self_attention/local_window_mask.hpp"
#include "tests/03_queries_keys_values/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/check_mask.hpp"
#include "tests/support/property.hpp"

using attn::ch03::Mask;

namespace {
constexpr bool o = false, X = true;   // o: may look, X: blocked (the hand-worked tables below)
}

TEST_CASE("04.2 local_window_mask" * doctest::test_suite("ch04")) {
    PROPERTY("a position always sees itself: the diagonal is never blocked") {
        const Mask blocked = attn::ch04::local_window_mask(2, 5, 1);
        REQUIRE_SHAPE(blocked.shape(), {2, 5, 5});
        for (std::size_t i = 0; i < 5; ++i) {
            const std::string i_text = std::to_string(i);
            CHECK_MASK_ENTRY(blocked, 0, i, i, o, "|" + i_text + " - " + i_text + "| = 0 <= window 1: it sees itself");
        }
    };
    PROPERTY("the window looks both ways: i sees j exactly when j sees i") {
        const Mask blocked = attn::ch04::local_window_mask(1, 7, 2);
        const Mask transposed = xt::transpose(blocked, {0, 2, 1});   // entry (0, i, j) is blocked(0, j, i)
        CHECK_MASK(blocked, transposed);
    };
    PROPERTY("the window includes its edge: window 2 sees two ahead and two behind, not three") {
        const Mask blocked = attn::ch04::local_window_mask(1, 7, 2);
        CHECK_MASK_ENTRY(blocked, 0, 3, 5, o, "|3 - 5| = 2 = window, which it includes");   // two ahead
        CHECK_MASK_ENTRY(blocked, 0, 3, 1, o, "|3 - 1| = 2 = window, which it includes");   // two behind
        CHECK_MASK_ENTRY(blocked, 0, 3, 6, X, "|3 - 6| = 3 > window 2");                    // three ahead
        CHECK_MASK_ENTRY(blocked, 0, 3, 0, X, "|3 - 0| = 3 > window 2");                    // three behind
    };
    PROPERTY("window 1 on n = 5, worked by hand: |i - j| <= 1 is visible, the window includes its edge") {
        const Mask expected = golden03::t3<bool>(
            {{{o, o, X, X, X}, {o, o, o, X, X}, {X, o, o, o, X}, {X, X, o, o, o}, {X, X, X, o, o}}});
        CHECK_MASK(attn::ch04::local_window_mask(1, 5, 1), expected);
    };
    PROPERTY("window 0 on n = 5: each position sees only itself") {
        const Mask expected = golden03::t3<bool>(
            {{{o, X, X, X, X}, {X, o, X, X, X}, {X, X, o, X, X}, {X, X, X, o, X}, {X, X, X, X, o}}});
        CHECK_MASK(attn::ch04::local_window_mask(1, 5, 0), expected);
    };
    PROPERTY("window n - 1 = 4 on n = 5, and any wider window, blocks nothing") {
        CHECK_FALSE(xt::any(attn::ch04::local_window_mask(2, 5, 4)));
        CHECK_FALSE(xt::any(attn::ch04::local_window_mask(2, 5, 100)));
    };
    PROPERTY("every batch entry gets the same mask") {
        const Mask blocked = attn::ch04::local_window_mask(3, 6, 2);
        REQUIRE_SHAPE(blocked.shape(), {3, 6, 6});
        const Mask first = xt::view(blocked, 0);
        const Mask last = xt::view(blocked, 2);
        CHECK_MASK(last, first);
        CHECK(xt::any(first));
    };
}
