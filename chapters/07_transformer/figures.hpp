// Chapter 07's figures: the learning-rate schedule, and the attention weights of one
// translation -- encoder self-attention, decoder causal self-attention, cross-attention --
// one panel per layer and head.
#pragma once
#include "chapters/01_encoder_decoder/training.hpp"
#include "chapters/07_transformer/transformer.hpp"
#include "common/plot.hpp"

#include <string>
#include <vector>

namespace attn::ch07 {

// The learning rate of every step of a run with this config (learning_rate_at).
plot::LinePlot learning_rate_schedule(const ch01::TrainConfig& config, const std::string& title);

// One kind of attention across the stack: weights per layer (1, heads, n_q, n_k) of one
// sentence -> a grid with a row per layer and a column per head.
plot::HeatmapGrid layers_and_heads(const std::vector<Var<float>>& weights, const std::vector<std::string>& query_labels,
                                   const std::vector<std::string>& key_labels, const std::string& title);

}  // namespace attn::ch07
