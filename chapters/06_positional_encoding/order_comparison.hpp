// Chapter 06's experiment: the three taggers (no positions, sinusoidal, learned) trained on
// the same batches with the same recipe, then scored on the same test sequences, by length,
// on the training lengths and beyond them.
#pragma once
#include "chapters/04_self_attention/counting.hpp"
#include "chapters/06_positional_encoding/position_tagger.hpp"

#include <cstdint>
#include <vector>

namespace attn::ch06 {

// Adam, gradient clipping, fresh batches: chapter 04's recipe and loop (train_steps).
using ch04::Recipe;

// Trains `tagger` for recipe.steps steps on fresh batches of the task's training lengths
// drawn from Rng(data_seed), so that taggers trained with the same seed see the same
// batches; returns the mean loss of the last tenth of the steps (NaN for 0 steps).
double train_position_tagger(PositionTagger& tagger, const PreviousTokenTask& task, const Recipe& recipe,
                             std::uint64_t data_seed);

// Test sequences: `per_length` of every length from shortest to longest, one batch per length.
std::vector<TokenBatch> make_test_sets(const PreviousTokenTask& task, std::size_t per_length, std::size_t shortest,
                                       std::size_t longest, Rng& rng);

// Right answers over a set of sequences: per token (every unpadded position), per whole
// sequence (every position of it right), and per token at the positions a model never saw
// in training (first_unseen and beyond).
struct OrderScore {
    std::size_t tokens = 0, right_tokens = 0, sequences = 0, right_sequences = 0;
    std::size_t unseen_tokens = 0, right_unseen_tokens = 0;
    double token_accuracy() const;      // NaN without tokens
    double sequence_accuracy() const;   // NaN without sequences
    double unseen_accuracy() const;     // NaN without unseen positions
    OrderScore& operator+=(const OrderScore& other);
};
// The score of class scores (batch, n, classes) against a batch's targets: the largest score
// is the prediction; padded positions are left out; positions from first_unseen on are also
// counted as unseen.
OrderScore score_predictions(const Array<float>& scores, const TokenBatch& batch, std::size_t first_unseen);
// One score per test set (per length); positions from first_unseen on counted as unseen.
std::vector<OrderScore> score_by_length(const PositionTagger& tagger, const std::vector<TokenBatch>& test_sets,
                                        std::size_t first_unseen);
// The sum of scores[first .. stop).
OrderScore total(const std::vector<OrderScore>& scores, std::size_t first, std::size_t stop);

}  // namespace attn::ch06
