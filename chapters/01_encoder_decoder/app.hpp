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

// How a chapter trains by default on one task in one mode: the steps, and Adam's learning
// rate, which starts at lr to cover ground fast and decays (a cosine) to lr * lr_end by the
// last step, so that the loss settles on its plateau instead of jittering.
// Chapter 07's Transformer instead warms up linearly to lr over `warmup` steps and then decays
// as the inverse square root of the step (lr_end unused), with label smoothing.
struct Recipe {
    int steps;
    double lr, lr_end;
    int warmup = 0;                  // 0: the cosine
    double label_smoothing = 0;
};
// Each chapter tunes its own recipes, one per generated task and mode (a TSV corpus uses the
// translation ones): chapter 02's attention model costs about twice as much per step as
// chapter 01's and learns the translation best at a lower rate, while a --quick run, a few
// hundred steps, needs a high rate to learn anything at all.
struct Recipes {
    Recipe translation, translation_quick, dates, dates_quick;
};
// Chapter 01's, about three minutes on two cores for the translation (chapter 02 compares with
// chapter 01 run at it): by then the validation loss has flattened and sentences of up to 10
// words come out right; --quick stays under ten seconds.
constexpr Recipes chapter01_recipes{{3400, 1.5e-2, 0.01}, {160, 1.5e-2, 0.01}, {1000, 1.5e-2, 0.01}, {150, 1.5e-2, 0.01}};

const Recipe& recipe_for(const Recipes& recipes, const std::string& task, bool has_data, bool quick);

struct AppSettings {
    RunSettings run;
    std::string task = "translation";   // or "dates"
    std::string data;                   // a TSV corpus instead of the generated tasks
    bool swap = false;                  // the TSV has target<TAB>source (Anki's fra.txt: English first)
    std::string level = "word";         // the TSV's tokens: "word" or "char"
    std::string save, load, translate;
    int embedding = 0;                  // 0: the task's default
    int hidden = 128;
    double lr = 0, lr_end = 0;          // 0: the recipe's for the task (finish_seq2seq_flags)
    int warmup = 0;                     // the recipe's, or --warmup where a chapter offers it
    double label_smoothing = 0;         // the recipe's, or --label-smoothing where a chapter offers it
    int batch = 64;
    bool measured_defaults = false;     // every setting that shapes the result is the course's default
    bool steps_given = false;           // --steps was on the command line
    bool lr_given = false, lr_end_given = false;   // --lr, --lr-end were
    bool print_ranges = false;          // --ranges: print the chapter's table of expected results and stop
};

// Binds the flags every seq2seq chapter shares; --help shows the learning rates of `recipes`.
// The model's sizes: a GRU's (--embedding, --hidden), or a Transformer's, whose only size here
// is d_model (--embedding; chapter 07 adds its own flags).
enum class SizeFlags { gru, transformer };
void add_seq2seq_flags(CommandLine& cli, AppSettings& settings, const std::string& chapter_dir, const Recipes& recipes,
                       SizeFlags sizes = SizeFlags::gru);
// Fills in defaults that depend on the task (steps, learning rates, embedding size) and checks the values,
// outputs included (check_before_training), so that nothing fails after training.
void finish_seq2seq_flags(const CommandLine& cli, AppSettings& settings, const std::string& chapter_dir,
                          const Recipes& recipes);
// Refuses, before any work, flags that would be ignored (--swap or --level without --data,
// --task with it), a blank --translate, a corpus that is not a regular file, and a --save
// that is not a new folder, an empty one or a checkpoint (or that holds --out): UsageError or
// InputError, exit code 2. (--out itself is checked by finish_standard_flags.)
void check_before_training(const CommandLine& cli, const AppSettings& settings);

// ", cosine decay to 0.0003" when the learning rate decays, "" when it is constant;
// ", warm-up over 200 steps, then 1/sqrt(step)" for the Transformer's schedule.
std::string learning_rate_decay(const AppSettings& settings);

ModelSizes model_sizes(const AppSettings& settings, const Task& task);
TrainConfig train_config(const AppSettings& settings, const std::string& label);

// A checkpoint folder holds the parameters, both vocabularies and settings.txt; loading
// refuses a checkpoint of another task or size with a one-line message.
template <class T>
void save_model(const Seq2SeqModel<T>& model, const Task& task, const AppSettings& settings, const std::string& dir);
template <class T>
void load_model(Seq2SeqModel<T>& model, const Task& task, const AppSettings& settings, const std::string& dir);

// Tokenises a sentence the way the task does (a pair without a target), noting any token
// the vocabulary lacks; throws std::invalid_argument if it is empty.
data::Pair read_sentence(const Task& task, const std::string& sentence);

// Tokenises a sentence the way the task does and translates it greedily.
template <class T>
std::vector<std::string> translate_sentence(Seq2SeqModel<T>& model, const Task& task, const std::string& sentence);

// Prints "\nHEADING SENTENCE", then (after read_sentence's note on unknown words, if any) the
// line "   => TRANSLATION".
template <class T>
void show_translation(Seq2SeqModel<T>& model, const Task& task, const std::string& sentence, const std::string& heading);

// The longest sentence --translate takes, in tokens (words, or characters at the character
// level): the chapters train on sentences of at most 40 words or 100 characters, and the
// attention models' memory grows with the square of the length.
constexpr std::size_t max_translate_tokens = 400;

// The settings that decide a run's result (task, data, sizes, steps, seed, ...), as recorded
// in summary.json, so that a later chapter can tell whether a saved run used the same ones.
std::map<std::string, std::string> decisive_settings(const AppSettings& settings, const Task& task);

// The expected results of a chapter's default runs, looked up for these settings: empty
// unless every setting that shapes the result is the course's default.
Ranges ranges_for(const RangeTable& table, const AppSettings& settings, const Task& task);

// Prints the scores by bucket ("n/a" for an empty bucket) and the whole test set.
void print_buckets(const Evaluation& evaluation);

}  // namespace attn::ch01
