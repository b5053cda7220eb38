// Chapter 01 against chapter 02 on the same data. Chapter 01's scores come from a saved
// summary.json of a chapter 01 run with the same task, sizes, seed and chapter 01's own
// budget: with --mine, the learner's run (out/mine/01_encoder_decoder) if there is one,
// else the reference run (out/01_encoder_decoder); failing both, chapter 01's model is
// trained here first. The printout says which was used and what each model's budget was.
#pragma once
#include "chapters/01_encoder_decoder/run_summary.hpp"

#include <optional>
#include <string>

namespace attn::ch02 {

struct Chapter01Scores {
    ch01::RunRecord run;   // settings, budget and test scores (no outputs when read from a file)
    std::string origin;    // where the numbers came from, for the printout and the summary
};

// The settings chapter 01 is compared at: chapter 02's, with chapter 01's default steps
// unless --steps was given (then both train for the same number of steps).
ch01::AppSettings chapter01_settings(const ch01::AppSettings& settings);

// Chapter 01's saved run for these settings, if there is one. Called before chapter 02
// trains, so that a broken summary.json stops the program at once (InputError naming the
// file and the key), not after minutes of training.
std::optional<Chapter01Scores> saved_chapter01_scores(const ch01::AppSettings& settings, const ch01::Task& task);
// Trains chapter 01's model with these settings and scores it (when nothing was saved).
Chapter01Scores train_chapter01(const ch01::AppSettings& settings, const ch01::Task& task);

}  // namespace attn::ch02
