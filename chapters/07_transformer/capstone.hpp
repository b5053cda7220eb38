// Part 8, the capstone: chapter 01's context vector, chapter 02's Bahdanau attention and this
// chapter's Transformer on the same toy French->English data and test set, each trained on its
// own chapter's default recipe (steps, learning rates, sizes). The earlier chapters' numbers come
// from their saved summary.json when a run with those settings exists -- with --mine the
// learner's own run first, then the reference run, as chapter 02 reads chapter 01's -- and
// otherwise their models are trained here. Prints the sizes, budgets, scores and training times,
// draws capstone.png (BLEU by source length, the time each took in the legend) and records the
// earlier chapters' numbers in the summary.
#pragma once
#include "chapters/01_encoder_decoder/run_summary.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace attn::ch07 {

// One model of the comparison.
struct CapstoneEntry {
    std::string name;             // "02 Bahdanau attention"
    std::size_t parameters = 0;
    ch01::SavedRun result;        // budget, times and test scores, and where they came from
};

// The capstone compares runs on the toy translation only (not dates, not a corpus of yours).
bool capstone_applies(const ch01::AppSettings& settings);

// The settings an earlier chapter trains with by default (`recipes`: that chapter's), on this
// run's task, seed, mode and code: its own steps and learning rates, the default sizes and batch.
ch01::AppSettings default_settings(const ch01::Recipes& recipes, const ch01::AppSettings& settings);

// The earlier chapters' saved runs, looked up before chapter 07 trains, so that a broken
// summary.json stops the program at once (InputError naming the file and the key).
struct EarlierRuns {
    std::optional<ch01::SavedRun> chapter01, chapter02;
};
EarlierRuns find_earlier_runs(const ch01::AppSettings& settings, const ch01::Task& task);

// Part 8: trains the earlier models that were not saved, prints the comparison, saves
// capstone.png in settings.run.out and records the earlier chapters' numbers in `summary`.
void report_capstone(const EarlierRuns& saved, const CapstoneEntry& transformer, const ch01::AppSettings& settings,
                     const ch01::Task& task, Summary& summary);

}  // namespace attn::ch07
