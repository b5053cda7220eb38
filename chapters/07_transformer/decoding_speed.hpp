// How much the key/value cache (7.5) saves when decoding: the same decoder, stepped through
// its cache or recomputed over the whole prefix at every step, timed on the same inputs.
#pragma once
#include "chapters/07_transformer/transformer_layers.hpp"

#include "common/cli.hpp"

#include <cstdint>

namespace attn::ch07 {

struct DecodingSpeed {
    double cached_seconds = 0;       // `steps` steps through decoder_stack_step
    double recomputed_seconds = 0;   // `steps` calls of decode() on the prefix so far, its last row kept
    double largest_difference = 0;   // between the two ways' outputs, over every step
};

// A random float Transformer of these sizes, `batch` random source sentences of
// source_length positions (already embedded) and random target inputs; decodes `steps`
// positions both ways, without gradients, best of `repeats` runs each.
DecodingSpeed measure_decoding_speed(const TransformerSizes& sizes, std::size_t batch, std::size_t source_length,
                                     std::size_t steps, std::uint64_t seed, std::size_t repeats = 3);

// Part 2 of the chapter: the lesson's model (d 64, 4 heads, feed-forward 256, 2 + 2 layers;
// smaller batches and sentences with --quick), both ways, printed as a table.
void report_decoding_speed(const RunSettings& run);

}  // namespace attn::ch07
