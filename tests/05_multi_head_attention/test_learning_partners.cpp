// Chapter 05's model code: the partners task's labels, and a learning test (a fixed seed and
// thresholds): at one parameter budget and with the same batches, two heads find both
// partners of every item, one on each, and a single head (at this seed) finds only one.
#include "chapters/05_multi_head_attention/head_comparison.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace attn::ch05;

TEST_CASE("ch05 model: partners and labels of a set, worked by hand" * doctest::test_suite("ch05")) {
    const PartnersTask task{4, 3, 3, 10};
    // items:    0       1       2       3
    // colour:   0       1       0       1     -> colour partners 2, 3, 0, 1
    // shape:    2       2       0       0     -> shape partners  1, 0, 3, 2
    // digit:    7       1       4       9
    const xt::xarray<std::int64_t> colour = {{0, 1, 0, 1}}, shape = {{2, 2, 0, 0}}, digit = {{7, 1, 4, 9}};
    const PartnersBatch batch = label_partners_batch(task, colour, shape, digit);
    CHECK(batch.colour_partner == xt::xarray<std::int64_t>{{2, 3, 0, 1}});
    CHECK(batch.shape_partner == xt::xarray<std::int64_t>{{1, 0, 3, 2}});
    // item 0: 4 - 1 = 3; item 1: 9 - 7 = 2; item 2: 7 - 9 = -2; item 3: 1 - 4 = -3; stored + 9
    CHECK(batch.classes == xt::xarray<std::int64_t>{{12, 11, 7, 6}});
    CHECK(task.classes() == 19);
    CHECK(item_name(batch, 0, 3) == "blue□9");

    SUBCASE("a colour on three items, or partners that coincide, are refused") {
        CHECK_THROWS_AS(label_partners_batch(task, xt::xarray<std::int64_t>{{0, 0, 0, 1}}, shape, digit),
                        std::invalid_argument);
        // items 0 and 1 share both colour and shape: each would be the other's two partners
        CHECK_THROWS_AS(label_partners_batch(task, xt::xarray<std::int64_t>{{0, 0, 1, 1}}, shape, digit),
                        std::invalid_argument);
    }
    SUBCASE("drawn sets have two items per colour and per shape, and different partners") {
        attn::Rng rng(3);
        const PartnersTask task8;
        const PartnersBatch drawn = make_partners_batch(task8, 50, rng);   // labelled, so checked, by label_partners_batch
        CHECK(xt::all(xt::not_equal(drawn.colour_partner, drawn.shape_partner)));
        CHECK(xt::amax(drawn.classes)() <= static_cast<std::int64_t>(task8.classes()) - 1);
        CHECK(xt::amin(drawn.classes)() >= 0);
    }
}

TEST_CASE("ch05 learning: two heads split the two partners between them, one head finds one and stays at chance" *
          doctest::test_suite("ch05.learning")) {
    const PartnersTask task;
    const TaggerSizes sizes;
    Recipe recipe;
    recipe.steps = 500;
    attn::Rng test_rng(7);
    const PartnersBatch test = make_partners_batch(task, 200, test_rng);
    attn::Rng init_one(42), init_two(42);
    PartnerTagger one(task, sizes.d_model, 1, sizes.hidden, init_one);
    PartnerTagger two(task, sizes.d_model, 2, sizes.hidden, init_two);
    // One parameter budget: the multi-head layer has 4 d^2 + 4 d parameters however many heads.
    CHECK(one.parameter_count() == two.parameter_count());
    train_partner_tagger(one, task, recipe, 1);
    train_partner_tagger(two, task, recipe, 1);
    const PartnerScore one_score = score_partner_tagger(one, test);
    const PartnerScore two_score = score_partner_tagger(two, test);
    MESSAGE("accuracy: 1 head ", one_score.accuracy, ", 2 heads ", two_score.accuracy, "; specialisation ",
            specialisation(two_score));
    // Seed 42 measured 0.993 against 0.109 (specialisation 0.958). Chance is 0.1 (the two digits equal); knowing the two
    // digits without knowing whose is whose caps the accuracy at 0.1 + 0.9 / 2 = 0.55.
    CHECK(two_score.accuracy > 0.8);
    // At other seeds a single head can mix the partners unequally and do far better (the
    // chapter's ranges say how often); at this one it settles on one partner.
    CHECK(one_score.accuracy < 0.3);
    // One head looks at the colour partner only, the other at the shape partner only.
    CHECK(specialisation(two_score) > 0.8);
    CHECK(specialisation(one_score) == 0.0);
}
