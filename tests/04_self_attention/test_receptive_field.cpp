// The receptive fields of chapter 04's part 3 (chapters/04_self_attention/receptive_field.hpp),
// measured through autodiff, against what the lesson derives: 2L + 1 positions centred on
// output i for L convolutions of kernel 3, all n positions for one self-attention layer.
#include "chapters/04_self_attention/receptive_field.hpp"

#include <doctest/doctest.h>

TEST_CASE("ch04 model: receptive fields measured through the gradient are 2L + 1 and n" * doctest::test_suite("ch04")) {
    attn::Rng rng(42);
    const std::size_t n = 32, i = 16;
    const std::vector<attn::ch04::ReceptiveField> fields = attn::ch04::receptive_fields(n, 8, i, 4, rng);
    REQUIRE(fields.size() == 4 + 1);
    SUBCASE("L convolutions of kernel 3: the 2L + 1 positions i - L .. i + L") {
        for (std::size_t L = 1; L <= 4; ++L) {
            const attn::ch04::ReceptiveField& field = fields[L - 1];
            INFO(field.model);
            CHECK(field.model == "conv L=" + std::to_string(L));
            CHECK(field.width() == 2 * L + 1);
            CHECK(field.first() == i - L);
            CHECK(field.last() == i + L);
        }
    }
    SUBCASE("one self-attention layer: all n positions") {
        CHECK(fields.back().model == "self-attention");
        CHECK(fields.back().width() == n);
        CHECK(fields.back().first() == 0);
        CHECK(fields.back().last() == n - 1);
    }
    SUBCASE("at the edge the zero padding cuts the field: output 0 of two convolutions sees 0 .. 2") {
        const std::vector<attn::ch04::ReceptiveField> edge = attn::ch04::receptive_fields(n, 8, 0, 2, rng);
        CHECK(edge[1].width() == 3);
        CHECK(edge[1].last() == 2);
    }
    SUBCASE("the figure: one row per model, 1 where a position can influence output i") {
        const attn::plot::Heatmap map = attn::ch04::receptive_field_heatmap(fields, i);
        REQUIRE(map.values.shape(0) == 5);
        REQUIRE(map.values.shape(1) == n);
        CHECK(map.values(0, i - 1) == 1.0);
        CHECK(map.values(0, i - 2) == 0.0);
        CHECK(map.categories.size() == 2);
    }
}
