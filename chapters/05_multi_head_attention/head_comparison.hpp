// Chapter 05's experiment: partner taggers with 1, 2, 4 and 8 heads at one parameter budget
// (the multi-head layer has 4 d^2 + 4 d parameters whatever the number of heads), trained on
// the same batches with the same recipe, then scored on the same test sets: accuracy, and how
// much weight each head puts on each item's colour partner and on its shape partner.
#pragma once
#include "chapters/04_self_attention/counting.hpp"
#include "chapters/05_multi_head_attention/partner_tagger.hpp"

#include <cstdint>
#include <vector>

namespace attn::ch05 {

struct TaggerSizes {
    std::size_t d_model = 32;   // width of the embeddings and of the multi-head layer
    std::size_t hidden = 64;    // the per-item head's hidden layer
};

// Adam, gradient clipping, fresh batches: chapter 04's recipe and loop (train_steps).
using ch04::Recipe;

// Trains `tagger` for recipe.steps steps on fresh batches drawn from Rng(data_seed), so that
// taggers trained with the same seed see the same batches; returns the mean loss of the last
// tenth of the steps (NaN for 0 steps).
double train_partner_tagger(PartnerTagger& tagger, const PartnersTask& task, const Recipe& recipe,
                            std::uint64_t data_seed);

// Accuracy over every item of `test`, and per head the mean attention weight an item puts on
// its colour partner and on its shape partner.
struct PartnerScore {
    double accuracy = 0;
    std::vector<double> colour_weight, shape_weight;   // one per head
};
PartnerScore score_partner_tagger(const PartnerTagger& tagger, const PartnersBatch& test);

// How far the heads split the two partners between them: the largest, over two different
// heads g and h, of ((colour_g - shape_g) + (shape_h - colour_h)) / 2. Near 1 when one head
// looks only at the colour partner and another only at the shape partner; 0 with one head.
double specialisation(const PartnerScore& score);

}  // namespace attn::ch05
