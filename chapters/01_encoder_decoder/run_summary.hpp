// What a seq2seq run writes to summary.json and what a later chapter reads back from it:
// one writer and one reader, so each key is spelled once. Chapter 02 compares itself with
// chapter 01 through these, chapter 03 with chapter 02, and chapter 07 with both.
#pragma once
#include "chapters/01_encoder_decoder/app.hpp"

#include <ctime>
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
    double train_cpu_seconds = 0;                   // CPU time of the training; 0: not recorded
};

// The CPU time this process has spent since the watch was made, for RunRecord's
// train_cpu_seconds: on a shared machine the wall clock also counts the other jobs' time.
class CpuStopwatch {
public:
    double seconds() const { return static_cast<double>(std::clock() - start_) / CLOCKS_PER_SEC; }

private:
    std::clock_t start_ = std::clock();
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

// What a later chapter does when find_saved_run found nothing: trains `model` (fresh, made
// with `settings`) as chapter `chapter_dir` would, and tests it, after one line saying where
// it looked and what the training will cost (`cost`: "3400 steps"). The record has no outputs.
SavedRun train_missing_run(Seq2SeqModel<float>& model, const std::string& chapter_dir, const AppSettings& settings,
                           const Task& task, const std::string& cost);

}  // namespace attn::ch01
