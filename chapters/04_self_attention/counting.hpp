// Chapter 04's comparison on the counting task: the three taggers (taggers.hpp) trained on
// the same batches with the same recipe, then scored on the same test sequences overall and
// by the distance to the farthest other occurrence of each position's token.
#pragma once
#include "chapters/04_self_attention/counting_task.hpp"
#include "chapters/04_self_attention/taggers.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace attn::ch04 {

// Sizes chosen so that the three taggers have about the same number of parameters.
struct TaggerSizes {
    std::size_t d_model = 32;         // embedding size (and the self-attention layer's width)
    std::size_t hidden = 64;          // the head's hidden layer; 32 units read the counts out far worse
    std::size_t gru_state = 12;       // per direction
    std::size_t conv_channels = 18;
    std::size_t conv_layers = 3;      // reach: conv_layers positions on each side
};

// The peak memory of the chapter's run when its convolutions have `channels` channels, in bytes:
// about 80 MB plus 2.35 MB per channel. Peak RSS measured with /usr/bin/time -f %M (--no-cost,
// the same with and without --quick): 103 MB at 18 channels, 1.20 GB at 512, 2.47 GB at 1024.
std::uint64_t run_memory_bytes(std::size_t conv_channels);

// Self-attention, bidirectional GRU, convolutions: in this order everywhere in the chapter.
std::vector<std::unique_ptr<Tagger>> make_taggers(const CountingTask& task, const TaggerSizes& sizes, Rng& rng);

struct Recipe {
    int steps = 0;
    std::size_t batch = 32;           // sequences per step
    double lr = 3e-3;                 // Adam
    double clip = 1.0;                // gradient norm
};

// Trains `tagger` for recipe.steps steps on fresh batches drawn from Rng(data_seed), so that
// taggers trained with the same seed see the same batches; returns train_steps' loss.
double train_tagger(Tagger& tagger, const CountingTask& task, const Recipe& recipe, std::uint64_t data_seed);

// The training loop of chapter 04's comparisons (and chapter 05's): recipe.steps steps of Adam on
// `parameters` with gradient clipping, step s minimising batch_loss(data) with data =
// Rng(data_seed) drawn on in order, so that models trained with the same seed see the same
// batches. Returns the mean loss of the last tenth of the steps (NaN for 0 steps).
double train_steps(const std::vector<Var<float>>& parameters, const Recipe& recipe, std::uint64_t data_seed,
                   const std::function<Var<float>(Rng& data)>& batch_loss);

// Accuracy over every position of `test`, and per farthest-distance bucket (bucket_of).
struct TaggerScore {
    double accuracy = 0;
    std::vector<double> by_bucket;          // NaN for a bucket without positions
    std::vector<std::size_t> positions;     // positions per bucket
};
TaggerScore score_tagger(const Tagger& tagger, const CountingTask& task, const CountingBatch& test);
// The same for class scores (batch, n, classes) from anywhere: the largest score is the prediction.
TaggerScore score_predictions(const Array<double>& scores, const CountingTask& task, const CountingBatch& test);

// The same score from class scores (batch, n, classes) against the right classes (batch, n),
// position (b, i) counted in bucket bucket_of_distance(farthest(b, i)) of `buckets`; positions
// whose class is negative have no label and are left out.
TaggerScore score_predictions(const Array<double>& scores, const xt::xarray<std::int64_t>& classes,
                              const xt::xarray<std::int64_t>& farthest, std::size_t buckets,
                              const std::function<std::size_t(std::size_t)>& bucket_of_distance);

// The accuracy over buckets first, first + 1, ..., stop - 1 of a score (to the last bucket by
// default): the share of right answers among their positions.
double accuracy_from_bucket(const TaggerScore& score, std::size_t first, std::size_t stop = SIZE_MAX);

}  // namespace attn::ch04
