// Part 8 of chapter 08 (--kv-heads-study): what fewer key/value heads cost chapter 07's
// translation model in quality. The model is trained again with G = H/2, H/4, ..., 1 key/value
// heads in its decoder's self- and cross-attention (grouped_query_translation.hpp), each by
// chapter 07's training at the seed, data, sizes and budget of part 6's model, which is the
// G = H row. Each is scored as chapter 07 scores its model: the validation loss, and greedy
// decoding of the test set (BLEU, exact match).
#pragma once
#include "chapters/01_encoder_decoder/evaluation.hpp"
#include "chapters/08_attention_at_scale/chapter07_translation.hpp"
#include "common/summary.hpp"

#include <cstdint>
#include <vector>

namespace attn::ch08 {

struct KeyValueHeadsRun {
    std::size_t kv_heads = 0;                 // G
    std::size_t parameters = 0;               // the whole model's
    std::size_t key_value_weights = 0;        // the decoder's k and v projections, biases included
    std::uint64_t cache_bytes_per_token = 0;  // (8.14), one token in every decoder layer's cache
    double train_seconds = 0, train_cpu_seconds = 0;
    double valid_loss = 0;                    // the plain cross-entropy, as training reports it
    ch01::Evaluation test;                    // greedy decoding of the test set
    double cache_difference = -1;             // cached vs recomputed scores (G < H; -1: part 6 checks G = H)
};

// The decoder's key and value projections: per layer two attentions (self and cross), each
// with k_proj and v_proj of G d_h rows, d weights and a bias each:
//   decoder_layers x 2 x 2 x G d_h x (d + 1)
std::size_t decoder_key_value_weights(const ch07::TransformerSizes& sizes, std::size_t kv_heads);

// The key/value head counts the study trains: H/2, H/4, ... down to 1 (each divides H).
std::vector<std::size_t> fewer_key_value_heads(std::size_t heads);

// Scores part 6's model (G = H, trained there: not loaded), trains and scores the others,
// prints the table and records each G's numbers in the summary, with the rows of `ranges`.
std::vector<KeyValueHeadsRun> study_key_value_heads(const Chapter07Translation& chapter07, Summary& summary,
                                                    const Ranges& ranges);

// Without --kv-heads-study: the one line that says how to run it and what it costs.
void mention_key_value_heads_study();

}  // namespace attn::ch08
