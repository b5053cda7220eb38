// Training and scoring the partner taggers (see head_comparison.hpp).
#include "chapters/05_multi_head_attention/head_comparison.hpp"

#include "common/autodiff/ops.hpp"

#include <algorithm>

namespace attn::ch05 {

double train_partner_tagger(PartnerTagger& tagger, const PartnersTask& task, const Recipe& recipe,
                            std::uint64_t data_seed) {
    return ch04::train_steps(tagger.parameters(), recipe, data_seed, [&](Rng& data) {
        const PartnersBatch batch = make_partners_batch(task, recipe.batch, data);
        return cross_entropy(tagger(batch), batch.classes);
    });
}

PartnerScore score_partner_tagger(const PartnerTagger& tagger, const PartnersBatch& test) {
    const Array<float> scores = tagger(test).value();          // (batch, items, classes)
    const Array<float> weights = tagger.head_weights(test);    // (batch, heads, items, items)
    const std::size_t sets = scores.shape(0), n = scores.shape(1), heads = weights.shape(1);
    PartnerScore score;
    score.colour_weight.assign(heads, 0.0);
    score.shape_weight.assign(heads, 0.0);
    std::size_t right = 0;
    for (std::size_t b = 0; b < sets; ++b)
        for (std::size_t i = 0; i < n; ++i) {
            std::size_t best = 0;
            for (std::size_t c = 1; c < scores.shape(2); ++c)
                if (scores(b, i, c) > scores(b, i, best)) best = c;
            right += static_cast<std::int64_t>(best) == test.classes(b, i);
            const auto by_colour = static_cast<std::size_t>(test.colour_partner(b, i));
            const auto by_shape = static_cast<std::size_t>(test.shape_partner(b, i));
            for (std::size_t h = 0; h < heads; ++h) {
                score.colour_weight[h] += weights(b, h, i, by_colour);
                score.shape_weight[h] += weights(b, h, i, by_shape);
            }
        }
    const double items = static_cast<double>(sets * n);
    score.accuracy = static_cast<double>(right) / items;
    for (std::size_t h = 0; h < heads; ++h) {
        score.colour_weight[h] /= items;
        score.shape_weight[h] /= items;
    }
    return score;
}

double specialisation(const PartnerScore& score) {
    double best = 0;
    for (std::size_t g = 0; g < score.colour_weight.size(); ++g)
        for (std::size_t h = 0; h < score.colour_weight.size(); ++h)
            if (g != h)
                best = std::max(best, (score.colour_weight[g] - score.shape_weight[g] + score.shape_weight[h] -
                                       score.colour_weight[h]) / 2);
    return best;
}

}  // namespace attn::ch05
