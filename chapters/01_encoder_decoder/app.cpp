// The seq2seq program's steps (see app.hpp).
#include "chapters/01_encoder_decoder/app.hpp"

#include "chapters/01_encoder_decoder/figures.hpp"
#include "chapters/01_encoder_decoder/memory_estimate.hpp"
#include "common/autodiff/ops.hpp"
#include "common/data/tokenize.hpp"
#include "common/files.hpp"
#include "common/nn/checkpoint.hpp"
#include "common/progress.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <map>
#include <optional>
#include <vector>

namespace attn::ch01 {

namespace {
// "0.003 for translation; 0.015 for translation --quick, dates, dates --quick" (or one number
// when every recipe uses the same).
std::string per_recipe(double Recipe::*field, const Recipes& recipes) {
    const std::vector<std::pair<const char*, double>> values = {
        {"translation", recipes.translation.*field}, {"translation --quick", recipes.translation_quick.*field},
        {"dates", recipes.dates.*field}, {"dates --quick", recipes.dates_quick.*field}};
    std::vector<std::pair<double, std::string>> groups;   // each value with the recipes that use it
    for (const auto& [name, value] : values) {
        auto group = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == value; });
        if (group == groups.end()) groups.push_back({value, name});
        else group->second += std::string(", ") + name;
    }
    std::ostringstream text;
    for (std::size_t i = 0; i < groups.size(); ++i) {
        text << (i > 0 ? "; " : "") << groups[i].first;
        if (groups.size() > 1) text << " for " << groups[i].second;
    }
    return text.str();
}
}  // namespace

void add_seq2seq_flags(CommandLine& cli, AppSettings& settings, const std::string& chapter_dir, const Recipes& recipes,
                       SizeFlags sizes) {
    add_standard_flags(cli, settings.run, chapter_dir);
    cli.option("task", &settings.task, "translation (toy French->English, word level) or dates (character level)", "TASK");
    cli.option("data", &settings.data, "train on your own corpus: a TSV file of source<TAB>target lines", "FILE");
    cli.flag("swap", &settings.swap, "with --data: the file has target<TAB>source (as Anki's fra.txt)");
    cli.option("level", &settings.level, "with --data: tokens are words (the default) or characters", "word|char");
    cli.option("save", &settings.save, "save the trained model (a checkpoint folder)", "DIR");
    cli.option("load", &settings.load, "load a saved model instead of training", "DIR");
    cli.option("translate", &settings.translate, "translate this sentence with the (trained or loaded) model", "SENTENCE");
    // The upper bounds keep a typo from ending in std::bad_alloc after minutes of work.
    if (sizes == SizeFlags::gru) {
        cli.option("embedding", &settings.embedding, "embedding size (default: 64 for words, 32 for characters)", 1, 2048);
        cli.option("hidden", &settings.hidden, "GRU hidden size", 1, 2048);
    } else {
        cli.option("embedding", &settings.embedding, "d_model, the width of every position's vector (default: 64; 32 with --quick)", 1, 2048);
    }
    cli.option("lr", &settings.lr, "Adam's peak learning rate (default: " + per_recipe(&Recipe::lr, recipes) + ")");
    cli.option("lr-end", &settings.lr_end, std::string(sizes == SizeFlags::transformer ? "with --warmup 0: " : "") +
                                               "the learning rate decays (cosine) to lr * this by the last step; 1 keeps it constant (default: " +
                                               per_recipe(&Recipe::lr_end, recipes) + ")");
    cli.option("batch", &settings.batch, "sentences per batch", 1, 8192);
    cli.flag("ranges", &settings.print_ranges, "print the chapter's expected results (a markdown table) and stop");
}

const Recipe& recipe_for(const Recipes& recipes, const std::string& task, bool has_data, bool quick) {
    if (task == "dates" && !has_data) return quick ? recipes.dates_quick : recipes.dates;
    return quick ? recipes.translation_quick : recipes.translation;
}

void finish_seq2seq_flags(const CommandLine& cli, AppSettings& settings, const std::string& chapter_dir,
                          const Recipes& recipes) {
    if (settings.task != "translation" && settings.task != "dates")
        throw UsageError("--task must be translation or dates, got '" + settings.task + "'", cli.usage());
    const bool has_data = !settings.data.empty();
    finish_standard_flags(cli, settings.run, chapter_dir, recipe_for(recipes, settings.task, has_data, false).steps,
                          recipe_for(recipes, settings.task, has_data, true).steps);
    const Recipe& recipe = recipe_for(recipes, settings.task, has_data, settings.run.quick);
    settings.steps_given = cli.given("steps");
    settings.lr_given = cli.given("lr");
    settings.lr_end_given = cli.given("lr-end");
    if (!settings.lr_given) settings.lr = recipe.lr;
    if (!settings.lr_end_given) settings.lr_end = recipe.lr_end;
    if (!cli.given("warmup")) settings.warmup = recipe.warmup;   // flags a chapter may add
    if (!cli.given("label-smoothing")) settings.label_smoothing = recipe.label_smoothing;
    if (settings.warmup < 0) throw UsageError("--warmup must be 0 (the cosine) or a number of steps", cli.usage());
    if (!(settings.label_smoothing >= 0 && settings.label_smoothing < 1))
        throw UsageError("--label-smoothing must be at least 0 and below 1", cli.usage());
    if (!(settings.lr > 0 && settings.lr < 1)) throw UsageError("--lr must be above 0 and below 1", cli.usage());
    if (!(settings.lr_end > 0 && settings.lr_end <= 1)) throw UsageError("--lr-end must be above 0 and at most 1", cli.usage());
    if (settings.lr_end_given && settings.warmup > 0)
        throw UsageError("--lr-end shapes the cosine schedule, which runs only with --warmup 0 (this run warms up for " +
                         std::to_string(settings.warmup) + " steps): add --warmup 0, or drop --lr-end", cli.usage());
    const bool dates = settings.task == "dates" && !has_data;
    if (settings.embedding == 0) settings.embedding = dates ? 32 : 64;
    settings.measured_defaults = settings.data.empty() && settings.load.empty();
    for (const char* flag : {"steps", "embedding", "hidden", "lr", "lr-end", "batch", "warmup", "label-smoothing"})
        settings.measured_defaults = settings.measured_defaults && !cli.given(flag);
    check_before_training(cli, settings);
}

namespace {
// True when `path` is `folder` or lies inside it (after resolving "..", links and the like).
bool is_inside(const std::filesystem::path& path, const std::filesystem::path& folder) {
    std::error_code error;
    const std::filesystem::path inner = std::filesystem::weakly_canonical(path, error);
    const std::filesystem::path outer = std::filesystem::weakly_canonical(folder, error);
    auto a = inner.begin(), b = outer.begin();
    for (; a != inner.end() && b != outer.end(); ++a, ++b)
        if (*a != *b) return *b == "" && std::next(b) == outer.end();   // "ck/" ends in an empty part
    return b == outer.end() || (*b == "" && std::next(b) == outer.end());
}
}  // namespace

void check_before_training(const CommandLine& cli, const AppSettings& settings) {
    const auto refuse = [&](const std::string& what) { return UsageError(what, cli.usage()); };
    if (settings.data.empty()) {
        if (settings.swap) throw refuse("--swap only applies to a corpus given with --data FILE");
        if (cli.given("level")) throw refuse("--level only applies to a corpus given with --data FILE");
    } else if (cli.given("task")) {
        throw refuse("--task chooses a generated task, but --data FILE gives your own corpus; drop one of them");
    }
    if (settings.level != "word" && settings.level != "char")
        throw refuse("--level must be word or char, got '" + settings.level + "'");
    if (!settings.load.empty())   // a loaded model is not trained: training's flags would be ignored
        for (const char* flag : {"steps", "lr", "lr-end", "batch", "warmup", "label-smoothing"})
            if (cli.given(flag))
                throw refuse(std::string("--load uses the saved model as it is, without training, so --") + flag +
                             " would be ignored: drop one of the two");
    if (!settings.translate.empty()) {
        if (const std::optional<std::string> problem = data::utf8_problem(settings.translate))
            throw refuse("--translate: " + *problem);
        if (data::normalize_text(settings.translate).empty())
            throw refuse("--translate: the sentence is blank; give the words to translate");
        const bool characters = settings.level == "char" || (settings.task == "dates" && settings.data.empty());
        const std::size_t tokens = characters ? data::split_code_points(settings.translate).size()
                                              : data::split_words(settings.translate).size();
        if (tokens > max_translate_tokens)
            throw refuse("--translate: the sentence has " + std::to_string(tokens) + (characters ? " characters" : " words") +
                         "; the chapters translate at most " + std::to_string(max_translate_tokens) +
                         " (they train on sentences of at most 40 words or 100 characters)");
    }
    try {
        if (!settings.save.empty()) {
            check_checkpoint_target(settings.save, "--save");
            if (is_inside(settings.run.out, settings.save))   // the figures would make it a folder that is not a checkpoint
                throw std::runtime_error("--save " + settings.save + ": --out " + settings.run.out +
                                         " is that folder or inside it; give the checkpoint a folder of its own");
        }
        if (!settings.load.empty()) check_checkpoint_source(settings.load, "--load");
        if (!settings.data.empty()) require_regular_file(settings.data, "the corpus");
        if (!settings.data.empty()) require_corpus_memory(settings.data);
    } catch (const UsageError&) {
        throw;
    } catch (const std::runtime_error& error) {
        throw InputError(error.what());   // exit code 2, before any training
    }
}

std::string learning_rate_decay(const AppSettings& settings) {
    std::ostringstream text;
    if (settings.warmup > 0) {
        text << ", warm-up over " << settings.warmup << " steps, then 1/sqrt(step)";
        return text.str();
    }
    if (settings.lr_end >= 1) return "";
    text << ", cosine decay to " << settings.lr * settings.lr_end;
    return text.str();
}

ModelSizes model_sizes(const AppSettings& settings, const Task& task) {
    return {task.source_vocab.size(), task.target_vocab.size(), static_cast<std::size_t>(settings.embedding),
            static_cast<std::size_t>(settings.hidden)};
}

TrainConfig train_config(const AppSettings& settings, const std::string& label) {
    TrainConfig config;
    config.steps = settings.run.steps;
    config.batch_size = static_cast<std::size_t>(settings.batch);
    config.lr = settings.lr;
    config.final_lr_fraction = settings.lr_end;
    config.warmup = settings.warmup;
    config.label_smoothing = settings.label_smoothing;
    config.eval_every = std::max(1, settings.run.steps / 10);
    config.seed = settings.run.seed;
    config.label = label;
    return config;
}

namespace {

template <class T>
std::string settings_text(const Task& task, const Seq2SeqModel<T>& model) {
    std::ostringstream text;
    text << "task\t" << task.name << "\nembedding\t" << model.sizes().embedding << "\nhidden\t" << model.sizes().hidden << "\n";
    if (!model.architecture().empty()) text << "architecture\t" << model.architecture() << "\n";
    return text.str();
}

}  // namespace

template <class T>
void save_model(const Seq2SeqModel<T>& model, const Task& task, const AppSettings& settings, const std::string& dir) {
    save_checkpoint(model, dir,
                    {{"settings.txt", settings_text(task, model)},
                     {"source_vocab.txt", task.source_vocab.text()},
                     {"target_vocab.txt", task.target_vocab.text()}});
    std::cout << "  saved the model to " << dir << "/\n";
}

namespace {
template <class T>
void check_and_load(Seq2SeqModel<T>& model, const Task& task, const std::string& dir) {
    const std::filesystem::path folder = dir;
    if (!std::filesystem::is_directory(folder)) throw std::runtime_error(dir + ": no such checkpoint folder");
    const std::string saved = read_text(folder / "settings.txt");
    // Each settings file on one line: its lines joined, every run of spaces one space.
    const auto one_line = [](const std::string& text) {
        std::string line;
        for (const char c : text)
            if (!std::isspace(static_cast<unsigned char>(c))) line += c;
            else if (!line.empty() && line.back() != ' ') line += ' ';
        while (!line.empty() && line.back() == ' ') line.pop_back();
        return line;
    };
    if (saved != settings_text(task, model))
        throw std::runtime_error(dir + ": saved for other settings (saved: " + one_line(saved) + "; this run: " +
                                 one_line(settings_text(task, model)) +
                                 "); load it with the chapter that saved it, run with the flags it was saved with (--quick, --embedding, ...)");
    if (data::Vocab::load(folder / "source_vocab.txt").tokens() != task.source_vocab.tokens() ||
        data::Vocab::load(folder / "target_vocab.txt").tokens() != task.target_vocab.tokens())
        throw std::runtime_error(dir + ": its vocabularies differ from this task's (another --seed, --data or --level?)");
    load_checkpoint(model, folder);
}
}  // namespace

template <class T>
void load_model(Seq2SeqModel<T>& model, const Task& task, const AppSettings& settings, const std::string& dir) {
    try {
        check_and_load(model, task, dir);
    } catch (const std::runtime_error& error) {
        throw InputError(error.what());   // a missing or mismatched checkpoint -> exit code 2
    }
    std::cout << "  loaded the model from " << dir << "/\n";
}


template <class T>
std::vector<std::string> translate_sentence(Seq2SeqModel<T>& model, const Task& task, const std::string& sentence) {
    return translate(model, task, {read_sentence(task, sentence)}).front();
}

template <class T>
void show_translation(Seq2SeqModel<T>& model, const Task& task, const std::string& sentence, const std::string& heading) {
    std::cout << "\n" << heading << " " << sentence << "\n";
    const std::vector<std::string> words = translate_sentence(model, task, sentence);   // may print a note first
    std::cout << "   => " << data::detokenize(words, task.corpus.level) << "\n";
}

data::Pair read_sentence(const Task& task, const std::string& sentence) {
    data::Pair pair;
    pair.source = task.corpus.level == data::TokenLevel::character ? data::split_code_points(sentence)
                                                                   : data::split_words(sentence);
    if (pair.source.empty()) throw std::invalid_argument("--translate: the sentence is empty");
    std::vector<std::string> unknown;
    for (const std::string& token : pair.source)
        if (!task.source_vocab.contains(token)) unknown.push_back(token);
    if (!unknown.empty())
        std::cout << "  note: not in the training vocabulary (read as <unk>): " << data::join_tokens(unknown, " ") << "\n";
    return pair;
}

std::map<std::string, std::string> decisive_settings(const AppSettings& settings, const Task& task) {
    const auto number = [](double v) { return json_number(v); };
    std::map<std::string, std::string> decisive = {{"task", task.name},
            {"data", settings.data.empty() ? "none" : settings.data},
            {"variant", settings.run.variant},
            {"seed", number(static_cast<double>(settings.run.seed))},
            {"steps", number(settings.run.steps)},
            {"quick", settings.run.quick ? "true" : "false"},
            {"embedding", number(settings.embedding)},
            {"hidden", number(settings.hidden)},
            {"batch", number(settings.batch)},
            {"lr", number(settings.lr)},
            {"lr_end", number(settings.lr_end)},
            {"loaded", settings.load.empty() ? "no" : settings.load}};
    // Only where they are used, so that the summaries of chapters 01-03 keep their keys.
    if (settings.warmup > 0) decisive["warmup"] = number(settings.warmup);
    if (settings.label_smoothing > 0) decisive["label_smoothing"] = number(settings.label_smoothing);
    return decisive;
}

Ranges ranges_for(const RangeTable& table, const AppSettings& settings, const Task& task) {
    if (!settings.measured_defaults) return {};
    return rows_for(table, task.name + (settings.run.quick ? " --quick" : ""));
}

void print_buckets(const Evaluation& evaluation) {
    std::printf("    %-8s %6s %8s %10s %8s\n", "length", "count", "BLEU", "token acc", "exact");
    for (const BucketScores& bucket : evaluation.buckets) {
        if (bucket.count == 0)   // no test sentence of these lengths: nothing to score
            std::printf("    %-8s %6zu %8s %10s %8s\n", bucket.label.c_str(), bucket.count, "n/a", "n/a", "n/a");
        else
            std::printf("    %-8s %6zu %8.3f %10.3f %8.3f\n", bucket.label.c_str(), bucket.count, bucket.scores.bleu,
                        bucket.scores.token_accuracy, bucket.scores.exact_match);
    }
    std::printf("    %-8s %6zu %8.3f %10.3f %8.3f\n", "all", evaluation.count, evaluation.overall.bleu,
                evaluation.overall.token_accuracy, evaluation.overall.exact_match);
}

template void save_model(const Seq2SeqModel<float>&, const Task&, const AppSettings&, const std::string&);
template void load_model(Seq2SeqModel<float>&, const Task&, const AppSettings&, const std::string&);
template std::vector<std::string> translate_sentence(Seq2SeqModel<float>&, const Task&, const std::string&);
template void show_translation(Seq2SeqModel<float>&, const Task&, const std::string&, const std::string&);

}  // namespace attn::ch01
