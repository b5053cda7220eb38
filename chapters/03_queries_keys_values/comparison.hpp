// Chapter 02's additive decoder on the same task and budget as chapter 03's Luong decoder.
// Its scores come from chapter 02's saved summary.json when that run used the same task,
// settings and seed; otherwise chapter 02's model is trained here first.
#pragma once
#include "chapters/01_encoder_decoder/app.hpp"

#include <string>

namespace attn::ch03 {

struct AdditiveScores {
    ch01::Evaluation evaluation;    // overall and per bucket (no hypotheses when read from a file)
    double steps_per_second = 0;    // training speed
    std::string origin;             // where the numbers came from, for the printout
};

AdditiveScores chapter02_scores(const ch01::AppSettings& settings, const ch01::Task& task);

}  // namespace attn::ch03
