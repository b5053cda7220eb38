// Where the decoder looked: the attention weights of one translation as a heatmap, output
// tokens down, source tokens across.
#pragma once
#include "chapters/01_encoder_decoder/task.hpp"
#include "chapters/02_bahdanau_attention/bahdanau.hpp"
#include "common/plot.hpp"

namespace attn::ch02 {

struct Alignment {
    std::vector<std::string> output;   // the translation (without <eos>)
    plot::Heatmap heatmap;
};

// Translates one pair's source greedily, recording alpha_t at every step.
Alignment align(AttentionSeq2Seq<float>& model, const ch01::Task& task, const data::Pair& pair, const std::string& title);

// The shortest test pair whose source contains `phrase` (a token sequence), or the first
// test pair of about `fallback_length` tokens if none does.
const data::Pair& pick_example(const std::vector<data::Pair>& pairs, const std::vector<std::string>& phrase,
                               std::size_t fallback_length);

}  // namespace attn::ch02
