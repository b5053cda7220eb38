// Chapter 02's additive decoder on the same task and budget as chapter 03's decoder. Its
// scores come from a saved summary.json of a chapter 02 run with the same task, sizes, seed
// and budget: with --mine, the learner's run (out/mine/02_bahdanau_attention) if there is
// one, else the reference run (out/02_bahdanau_attention); failing both, chapter 02's model
// is trained here first. The printout says which was used.
#pragma once
#include "chapters/01_encoder_decoder/run_summary.hpp"

#include <optional>
#include <string>

namespace attn::ch03 {

struct AdditiveScores {
    ch01::RunRecord run;   // settings, budget and test scores (no outputs when read from a file)
    std::string origin;    // where the numbers came from, for the printout and the summary
};

// The saved run, read before training so that a broken summary.json stops the program early;
// nothing when there is none with these settings.
std::optional<AdditiveScores> saved_chapter02_scores(const ch01::AppSettings& settings, const ch01::Task& task);
// Trains chapter 02's model on the same task and budget, and tests it.
AdditiveScores train_chapter02(const ch01::AppSettings& settings, const ch01::Task& task);

}  // namespace attn::ch03
