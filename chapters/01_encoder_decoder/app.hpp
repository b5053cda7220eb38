// The command-line program of chapters 01 and 02: flags, the task, training or loading a
// model, evaluation by source length, --translate, checkpoints. main.cpp tells the story;
// these are its steps.
#pragma once
#include "chapters/01_encoder_decoder/evaluation.hpp"
#include "chapters/01_encoder_decoder/training.hpp"
#include "common/cli.hpp"
#include "common/summary.hpp"

#include <map>
#include <string>
#include <utility>

namespace attn::ch01 {

struct AppSettings {
    RunSettings run;
    std::string task = "translation";   // or "dates"
    std::string data;                   // a TSV corpus instead of the generated tasks
    bool swap = false;                  // the TSV has target<TAB>source (Anki's fra.txt: English first)
    std::string level = "word";         // the TSV's tokens: "word" or "char"
    std::string save, load, translate;
    int embedding = 0;                  // 0: the task's default
    int hidden = 128;
    double lr = 3e-3;
    int batch = 64;
    bool measured_defaults = false;     // every setting that shapes the result is the course's default
};

// Binds the flags every seq2seq chapter shares.
void add_seq2seq_flags(CommandLine& cli, AppSettings& settings, const std::string& chapter_dir);
// Fills in defaults that depend on the task (steps, embedding size) and checks the values,
// outputs included (check_before_training), so that nothing fails after training.
void finish_seq2seq_flags(const CommandLine& cli, AppSettings& settings, const std::string& chapter_dir);
// Refuses, before any work, flags that would be ignored (--swap or --level without --data,
// --task with it), a blank --translate, a corpus that is not a regular file, and a --save
// that is not a new folder, an empty one or a checkpoint (or that holds --out): UsageError or
// InputError, exit code 2. (--out itself is checked by finish_standard_flags.)
void check_before_training(const CommandLine& cli, const AppSettings& settings);

ModelSizes model_sizes(const AppSettings& settings, const Task& task);
TrainConfig train_config(const AppSettings& settings, const std::string& label);

// A checkpoint folder holds the parameters, both vocabularies and settings.txt; loading
// refuses a checkpoint of another task or size with a one-line message.
template <class T>
void save_model(const Seq2SeqModel<T>& model, const Task& task, const AppSettings& settings, const std::string& dir);
template <class T>
void load_model(Seq2SeqModel<T>& model, const Task& task, const AppSettings& settings, const std::string& dir);

// Tokenises a sentence the way the task does and translates it greedily.
template <class T>
std::vector<std::string> translate_sentence(Seq2SeqModel<T>& model, const Task& task, const std::string& sentence);

// Records the settings that decide a run's result (task, data, sizes, steps, seed, ...), so
// that a later chapter can tell whether a saved summary.json came from the same settings.
void record_settings(const AppSettings& settings, const Task& task, Summary& summary);
// True when `saved` (read_summary of a summary.json) holds the same recorded settings.
bool same_settings(const std::map<std::string, std::string>& saved, const AppSettings& settings, const Task& task);

// What a correct implementation reaches at the course's default settings, measured over
// seeds (see the lessons): metric key -> [lo, hi]. Empty for other settings.
using Ranges = std::map<std::string, std::pair<double, double>>;
Ranges expected_ranges(const std::string& chapter, const AppSettings& settings, const Task& task);
// Adds a metric to the summary with its range if `ranges` has one, without otherwise.
void add_metric(Summary& summary, const Ranges& ranges, const std::string& key, const std::string& label, double value);

// Prints the scores by bucket and records them in the summary under `prefix`.
void report_buckets(const Evaluation& evaluation, const std::string& prefix, Summary& summary);


}  // namespace attn::ch01
