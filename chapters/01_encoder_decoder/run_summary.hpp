// What a seq2seq run writes to summary.json and what a later chapter reads back from it:
// one writer and one reader, so each key is spelled once. Chapter 02 compares itself with
// chapter 01 through these.
#pragma once
#include "chapters/01_encoder_decoder/app.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace attn::ch01 {

// A finished run as a later chapter needs it: its settings, its budget and its test scores.
struct RunRecord {
    std::map<std::string, std::string> settings;   // decisive_settings() of the run
    int steps = 0;                                  // training steps (0 for a loaded model)
    double train_seconds = 0;                       // wall time of the training
    Evaluation test;                                // overall and by bucket, without the outputs
};

// Records the run in `summary`: its settings, budget, every bucket's scores (an empty bucket
// only by its count), and the test metrics judged against `ranges`.
void write_run(Summary& summary, const RunRecord& run, const Ranges& ranges);

// True when the summary.json at `path` exists and was written by a run with these settings.
bool has_run(const std::filesystem::path& path, const std::map<std::string, std::string>& settings);

// Reads back what write_run recorded for `task`'s buckets. Throws InputError naming the
// file and the key when a number is missing or null.
RunRecord read_run(const std::filesystem::path& path, const Task& task);

// A saved run of an earlier chapter, and where it came from ("the reference chapter 01 run,
// out/01_encoder_decoder/summary.json"), for the printout and the summary.
struct SavedRun {
    RunRecord run;
    std::string origin;
};

// The saved run of chapter `chapter_dir` made with `settings` (their variant aside): with
// --mine (settings.run.variant == "mine") the learner's own run first, then the reference
// run. Empty when neither matches. A later chapter compares itself with an earlier one
// through this, so "which run did it read" has one answer.
std::optional<SavedRun> find_saved_run(const std::string& chapter_dir, AppSettings settings, const Task& task);
// The summary.json files find_saved_run looks in, for a message ("A or B").
std::string saved_run_paths(const std::string& chapter_dir, const AppSettings& settings);

}  // namespace attn::ch01
