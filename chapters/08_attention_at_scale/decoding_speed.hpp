// Part 6 of chapter 08: generation with and without the key/value cache (8.15) on chapter 07's
// trained translation model. The same sentences are decoded greedily by the cached step and by
// chapter 07's step, which recomputes the whole prefix, both fed the same tokens, and every step
// is timed, so that the tokens per second can be read at every output length.
#pragma once
#include "chapters/01_encoder_decoder/task.hpp"
#include "chapters/08_attention_at_scale/cached_translation.hpp"
#include "common/plot.hpp"

#include <cstddef>
#include <vector>

namespace attn::ch08 {

struct GenerationSpeed {
    std::size_t sentences = 0;                                // decoded side by side, one row each
    std::vector<double> cached_seconds, recomputed_seconds;   // [t - 1]: to generate t tokens per sentence
    double largest_difference = 0;   // between the two steps' logits, over every step and sentence
};

// Decodes the sources of `pairs` for `length` steps both ways, without a tape: each step feeds
// both decoders the tokens the cached one chose (its argmax, past <eos> too, so that every
// sentence reaches every length). The time of each step is the fastest of `repeats` runs.
// Model: chapter 07's model with the cache (CachedTranslationModel<float>) or the grouped one
// (GroupedQueryTranslation<float>), each with decoder() through its cache and recomputing_decoder().
template <class Model>
GenerationSpeed measure_generation(Model& model, const ch01::Task& task, const std::vector<data::Pair>& pairs,
                                   std::size_t length, std::size_t repeats = 3);

// sentences x t / seconds[t - 1]: the tokens per second of generating t tokens per sentence.
double tokens_per_second(const GenerationSpeed& speed, const std::vector<double>& seconds, std::size_t t);

// Tokens per second against the output length, with and without the cache.
plot::LinePlot generation_speed_plot(const GenerationSpeed& speed);

}  // namespace attn::ch08
