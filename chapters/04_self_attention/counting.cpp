// Training and scoring the counting taggers (see counting.hpp).
#include "chapters/04_self_attention/counting.hpp"

#include "common/autodiff/ops.hpp"
#include "common/nn/optim.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attn::ch04 {

std::uint64_t run_memory_bytes(std::size_t conv_channels) {
    return 80'000'000 + 2'350'000 * static_cast<std::uint64_t>(conv_channels);
}

std::vector<std::unique_ptr<Tagger>> make_taggers(const CountingTask& task, const TaggerSizes& sizes, Rng& rng) {
    std::vector<std::unique_ptr<Tagger>> taggers;
    taggers.push_back(std::make_unique<AttentionTagger>(task.vocab, sizes.d_model, sizes.hidden, task.classes, rng));
    taggers.push_back(
        std::make_unique<GruTagger>(task.vocab, sizes.d_model, sizes.gru_state, sizes.hidden, task.classes, rng));
    taggers.push_back(std::make_unique<ConvTagger>(task.vocab, sizes.d_model, sizes.conv_channels, sizes.conv_layers,
                                                   sizes.hidden, task.classes, rng));
    return taggers;
}

double train_steps(const std::vector<Var<float>>& parameters, const Recipe& recipe, std::uint64_t data_seed,
                   const std::function<Var<float>(Rng& data)>& batch_loss) {
    Rng data(data_seed);
    Adam<float> adam(parameters, recipe.lr);
    const int tail_from = recipe.steps - std::max(1, recipe.steps / 10);
    double tail_loss = 0;
    for (int step = 0; step < recipe.steps; ++step) {
        adam.zero_grad();
        const Var<float> loss = batch_loss(data);
        backward(loss);
        clip_grad_norm(parameters, recipe.clip);
        adam.step();
        if (step >= tail_from) tail_loss += loss.value()();
    }
    return recipe.steps > 0 ? tail_loss / (recipe.steps - tail_from) : std::numeric_limits<double>::quiet_NaN();
}

double train_tagger(Tagger& tagger, const CountingTask& task, const Recipe& recipe, std::uint64_t data_seed) {
    return train_steps(tagger.parameters(), recipe, data_seed, [&](Rng& data) {
        const CountingBatch batch = make_counting_batch(task, recipe.batch, data);
        return cross_entropy(tagger(batch.tokens), batch.classes);
    });
}

TaggerScore score_tagger(const Tagger& tagger, const CountingTask& task, const CountingBatch& test) {
    return score_predictions(xt::cast<double>(tagger(test.tokens).value()), test.classes, test.farthest, bucket_names(task.length).size(),
                             bucket_of);
}

TaggerScore score_predictions(const Array<double>& scores, const xt::xarray<std::int64_t>& classes,
                              const xt::xarray<std::int64_t>& farthest, std::size_t buckets,
                              const std::function<std::size_t(std::size_t)>& bucket_of_distance) {
    std::vector<std::size_t> right(buckets, 0);
    TaggerScore score;
    score.positions.assign(buckets, 0);
    std::size_t all_right = 0, all_counted = 0;
    for (std::size_t b = 0; b < scores.shape(0); ++b)
        for (std::size_t i = 0; i < scores.shape(1); ++i) {
            if (classes(b, i) < 0) continue;   // not labelled
            ++all_counted;
            std::size_t best = 0;
            for (std::size_t c = 1; c < scores.shape(2); ++c)
                if (scores(b, i, c) > scores(b, i, best)) best = c;
            const bool ok = static_cast<std::int64_t>(best) == classes(b, i);
            const std::size_t bucket = bucket_of_distance(static_cast<std::size_t>(farthest(b, i)));
            ++score.positions[bucket];
            right[bucket] += ok;
            all_right += ok;
        }
    score.accuracy = static_cast<double>(all_right) / static_cast<double>(all_counted);
    for (std::size_t k = 0; k < buckets; ++k)
        score.by_bucket.push_back(score.positions[k] > 0 ? static_cast<double>(right[k]) / score.positions[k]
                                                          : std::numeric_limits<double>::quiet_NaN());
    return score;
}

double accuracy_from_bucket(const TaggerScore& score, std::size_t first, std::size_t stop) {
    double right = 0, count = 0;
    for (std::size_t k = first; k < std::min(stop, score.positions.size()); ++k) {
        if (score.positions[k] == 0) continue;
        right += score.by_bucket[k] * static_cast<double>(score.positions[k]);
        count += static_cast<double>(score.positions[k]);
    }
    return right / count;
}

}  // namespace attn::ch04
