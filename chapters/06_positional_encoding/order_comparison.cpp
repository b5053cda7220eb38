// Training and scoring the position taggers (see order_comparison.hpp).
#include "chapters/06_positional_encoding/order_comparison.hpp"

#include "common/autodiff/ops.hpp"

#include <cmath>
#include <limits>

namespace attn::ch06 {

double train_position_tagger(PositionTagger& tagger, const PreviousTokenTask& task, const Recipe& recipe,
                             std::uint64_t data_seed) {
    return ch04::train_steps(tagger.parameters(), recipe, data_seed, [&](Rng& data) {
        const TokenBatch batch = make_token_batch(task, recipe.batch, task.shortest, task.longest, data);
        return cross_entropy(tagger(batch), batch.targets, ignored_target);
    });
}

std::vector<TokenBatch> make_test_sets(const PreviousTokenTask& task, std::size_t per_length, std::size_t shortest,
                                       std::size_t longest, Rng& rng) {
    std::vector<TokenBatch> sets;
    for (std::size_t n = shortest; n <= longest; ++n) sets.push_back(make_token_batch(task, per_length, n, n, rng));
    return sets;
}

namespace {
double share(std::size_t part, std::size_t whole) {
    return whole == 0 ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(part) / static_cast<double>(whole);
}
}  // namespace

double OrderScore::token_accuracy() const { return share(right_tokens, tokens); }
double OrderScore::sequence_accuracy() const { return share(right_sequences, sequences); }
double OrderScore::unseen_accuracy() const { return share(right_unseen_tokens, unseen_tokens); }

OrderScore& OrderScore::operator+=(const OrderScore& other) {
    tokens += other.tokens;
    right_tokens += other.right_tokens;
    sequences += other.sequences;
    right_sequences += other.right_sequences;
    unseen_tokens += other.unseen_tokens;
    right_unseen_tokens += other.right_unseen_tokens;
    return *this;
}

OrderScore score_predictions(const Array<float>& scores, const TokenBatch& batch, std::size_t first_unseen) {
    OrderScore score;
    for (std::size_t b = 0; b < batch.lengths.size(); ++b) {
        std::size_t right = 0;
        for (std::size_t i = 0; i < batch.lengths[b]; ++i) {
            std::size_t best = 0;
            for (std::size_t c = 1; c < scores.shape(2); ++c)
                if (scores(b, i, c) > scores(b, i, best)) best = c;
            const bool correct = static_cast<std::int64_t>(best) == batch.targets(b, i);
            right += correct;
            if (i >= first_unseen) {
                score.unseen_tokens += 1;
                score.right_unseen_tokens += correct;
            }
        }
        score.tokens += batch.lengths[b];
        score.right_tokens += right;
        score.sequences += 1;
        score.right_sequences += right == batch.lengths[b];
    }
    return score;
}

std::vector<OrderScore> score_by_length(const PositionTagger& tagger, const std::vector<TokenBatch>& test_sets,
                                        std::size_t first_unseen) {
    std::vector<OrderScore> scores;
    for (const TokenBatch& set : test_sets) scores.push_back(score_predictions(tagger(set).value(), set, first_unseen));
    return scores;
}

OrderScore total(const std::vector<OrderScore>& scores, std::size_t first, std::size_t stop) {
    OrderScore sum;
    for (std::size_t k = first; k < stop && k < scores.size(); ++k) sum += scores[k];
    return sum;
}

}  // namespace attn::ch06
