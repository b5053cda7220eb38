// Where each head of each layer looked while translating one sentence: the three kinds of
// attention of the Transformer as grids of heatmaps with the tokens as labels.
#pragma once
#include "chapters/01_encoder_decoder/task.hpp"
#include "chapters/07_transformer/translation_model.hpp"
#include "common/plot.hpp"

#include <string>
#include <vector>

namespace attn::ch07 {

struct AttentionMaps {
    std::vector<std::string> output;   // the greedy translation (without <eos>)
    plot::HeatmapGrid encoder_self;    // source x source
    plot::HeatmapGrid decoder_self;    // <bos> y_1 ... x the same: the causal triangle
    plot::HeatmapGrid cross;           // the token each position writes x source
};

// Translates pair.source greedily, then runs the model once more over <bos> + its own output
// with teacher forcing, which yields the very weights that produced each token (the causal
// mask makes position t's computation the same as at step t of the decoding).
AttentionMaps attention_maps(TransformerSeq2Seq<float>& model, const ch01::Task& task, const data::Pair& pair,
                             const std::string& title);

}  // namespace attn::ch07
