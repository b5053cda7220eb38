// Chapter 02's additive decoder on the same task and budget as chapter 03's decoder. Its
// scores come from a saved summary.json of a chapter 02 run with the same task, sizes, seed
// and budget: with --mine, the learner's run (out/mine/02_bahdanau_attention) if there is
// one, else the reference run (out/02_bahdanau_attention); failing both, chapter 02's model
// is trained here first. The printout says which was used.
#pragma once
#include "chapters/01_encoder_decoder/run_summary.hpp"

#include <string>

namespace attn::ch03 {

struct AdditiveScores {
    ch01::RunRecord run;   // settings, budget and test scores (no outputs when read from a file)
    std::string origin;    // where the numbers came from, for the printout and the summary
};

AdditiveScores chapter02_scores(const ch01::AppSettings& settings, const ch01::Task& task);

}  // namespace attn::ch03
