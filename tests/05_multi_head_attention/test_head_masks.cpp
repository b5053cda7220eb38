// The masks of multi-head attention: combine_masks and repeat_for_heads (head_masks.hpp).
#include "chapters/05_multi_head_attention/head_masks.hpp"
#include "tests/support/logic_error_of.hpp"
#include "tests/support/property.hpp"

#include <doctest/doctest.h>

using attn::ch03::Mask;

namespace {
Mask mask2(std::initializer_list<std::initializer_list<bool>> rows) { return xt::xtensor<bool, 2>(rows); }
Mask mask3(std::initializer_list<std::initializer_list<std::initializer_list<bool>>> blocks) {
    return xt::xtensor<bool, 3>(blocks);
}
}  // namespace

TEST_CASE("multi-head masks" * doctest::test_suite("ch05")) {
    PROPERTY("key padding blocks a column for every query; the attention mask is shared by the batch; they are OR-ed") {
        // batch 2, n_q 2, n_k 3: sequence 1 has one padded key (2); the attention mask blocks
        // key 1 for query 0.
        const Mask padding = mask2({{false, false, false}, {false, false, true}});
        const Mask attention = mask2({{false, true, false}, {false, false, false}});
        const Mask combined = attn::ch05::combine_masks(padding, attention, 2, 2, 3);
        const Mask expected = mask3({{{false, true, false}, {false, false, false}},
                                     {{false, true, true}, {false, false, true}}});
        CHECK(combined == expected);
    };
    PROPERTY("one mask alone is that mask, broadcast; none gives no mask") {
        const Mask padding = mask2({{true, false}, {false, false}});
        CHECK(attn::ch05::combine_masks(padding, attn::ch03::no_mask(), 2, 1, 2) ==
              mask3({{{true, false}}, {{false, false}}}));
        const Mask per_batch = mask3({{{true, false}}, {{false, true}}});
        CHECK(attn::ch05::combine_masks(attn::ch03::no_mask(), per_batch, 2, 1, 2) == per_batch);
        CHECK(attn::ch03::is_empty(attn::ch05::combine_masks(attn::ch03::no_mask(), attn::ch03::no_mask(), 2, 1, 2)));
    };
    PROPERTY("every head of a sequence gets that sequence's mask, in split_heads' order b * heads + h") {
        const Mask blocked = mask3({{{true, false}}, {{false, true}}});
        const Mask repeated = attn::ch05::repeat_for_heads(blocked, 3);
        CHECK(repeated == mask3({{{true, false}}, {{true, false}}, {{true, false}},
                                 {{false, true}}, {{false, true}}, {{false, true}}}));
        CHECK(attn::ch03::is_empty(attn::ch05::repeat_for_heads(attn::ch03::no_mask(), 3)));
    };
    PROPERTY("masks of the wrong shape are refused") {
        const Mask padding = mask2({{false, false}, {false, false}});
        CHECK_THROWS_AS(attn::ch05::combine_masks(padding, attn::ch03::no_mask(), 2, 2, 3), std::invalid_argument);
        CHECK_THROWS_AS(attn::ch05::combine_masks(attn::ch03::no_mask(), padding, 2, 2, 3), std::invalid_argument);
        CHECK_THROWS_AS(attn::ch05::repeat_for_heads(padding, 2), std::invalid_argument);
    };
    PROPERTY("two masks passed swapped are named: each error says the mask it got has the other one's shape") {
        // batch 2, n_q 3, n_k 4: key padding (2, 4), attention mask (3, 4).
        const Mask padding = xt::zeros<bool>({2, 4}), attention = xt::zeros<bool>({3, 4});
        const Mask per_batch = xt::zeros<bool>({2, 3, 4});
        CHECK(support::logic_error_of([&] { attn::ch05::combine_masks(attention, padding, 2, 3, 4); }) ==
              "combine_masks: key padding mask (3, 4) must be (batch, n_k) = (2, 4); (3, 4) is the shape of an "
              "attention mask, (n_q, n_k) or (batch, n_q, n_k): pass it as attention_mask, after key_padding");
        CHECK(support::logic_error_of([&] { attn::ch05::combine_masks(per_batch, attn::ch03::no_mask(), 2, 3, 4); }) ==
              "combine_masks: key padding mask (2, 3, 4) must be (batch, n_k) = (2, 4); (2, 3, 4) is the shape of an "
              "attention mask, (n_q, n_k) or (batch, n_q, n_k): pass it as attention_mask, after key_padding");
        CHECK(support::logic_error_of([&] { attn::ch05::combine_masks(attn::ch03::no_mask(), padding, 2, 3, 4); }) ==
              "combine_masks: attention mask (2, 4) must be (n_q, n_k) = (3, 4) or (batch, n_q, n_k) = (2, 3, 4); "
              "(2, 4) is the shape of a key padding mask, (batch, n_k): pass it as key_padding, before attention_mask");
        // The right batch but another length: the keys are not the padding's sequence.
        const Mask longer = xt::zeros<bool>({2, 5});
        CHECK(support::logic_error_of([&] { attn::ch05::combine_masks(longer, attn::ch03::no_mask(), 2, 3, 4); }) ==
              "combine_masks: key padding mask (2, 5) must be (batch, n_k) = (2, 4); it covers 5 keys where there are "
              "n_k = 4: are the keys (and values) the sequence this padding belongs to?");
        // A shape that is neither gets no such guess.
        const Mask other = xt::zeros<bool>({5, 5});
        CHECK(support::logic_error_of([&] { attn::ch05::combine_masks(other, attn::ch03::no_mask(), 2, 3, 4); }) ==
              "combine_masks: key padding mask (5, 5) must be (batch, n_k) = (2, 4)");
    };
}
