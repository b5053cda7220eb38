// Chapter 01 against chapter 02 on the same data and budget. Chapter 01's scores come from
// its saved summary.json when that run used the same task and settings (docs/design.md,
// "Where runs go"); otherwise chapter 01's model is trained here first.
#pragma once
#include "chapters/01_encoder_decoder/app.hpp"

#include <string>

namespace attn::ch02 {

struct Chapter01Scores {
    ch01::Evaluation evaluation;   // overall and per bucket (no hypotheses when read from a file)
    std::string origin;            // where the numbers came from, for the printout
};

Chapter01Scores chapter01_scores(const ch01::AppSettings& settings, const ch01::Task& task);

}  // namespace attn::ch02
