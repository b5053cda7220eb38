// The seq2seq program's steps (see app.hpp).
#include "chapters/01_encoder_decoder/app.hpp"

#include "chapters/01_encoder_decoder/figures.hpp"
#include "common/autodiff/ops.hpp"
#include "common/data/tokenize.hpp"
#include "common/files.hpp"
#include "common/nn/checkpoint.hpp"
#include "common/progress.hpp"

#include <cstdio>
#include <iostream>
#include <sstream>
#include <map>
#include <optional>

namespace attn::ch01 {

void add_seq2seq_flags(CommandLine& cli, AppSettings& settings, const std::string& chapter_dir) {
    add_standard_flags(cli, settings.run, chapter_dir);
    cli.option("task", &settings.task, "translation (toy French->English, word level) or dates (character level)", "TASK");
    cli.option("data", &settings.data, "train on your own corpus: a TSV file of source<TAB>target lines", "FILE");
    cli.flag("swap", &settings.swap, "with --data: the file has target<TAB>source (as Anki's fra.txt)");
    cli.option("level", &settings.level, "with --data: tokens are words (the default) or characters", "word|char");
    cli.option("save", &settings.save, "save the trained model (a checkpoint folder)", "DIR");
    cli.option("load", &settings.load, "load a saved model instead of training", "DIR");
    cli.option("translate", &settings.translate, "translate this sentence with the (trained or loaded) model", "SENTENCE");
    // The upper bounds keep a typo from ending in std::bad_alloc after minutes of work.
    cli.option("embedding", &settings.embedding, "embedding size (default: 64 for words, 32 for characters)", 0, 2048);
    cli.option("hidden", &settings.hidden, "GRU hidden size", 1, 2048);
    cli.option("lr", &settings.lr, "Adam learning rate");
    cli.option("batch", &settings.batch, "sentences per batch", 1, 8192);
}

void finish_seq2seq_flags(const CommandLine& cli, AppSettings& settings, const std::string& chapter_dir) {
    if (settings.task != "translation" && settings.task != "dates")
        throw UsageError("--task must be translation or dates, got '" + settings.task + "'", cli.usage());
    if (!(settings.lr > 0 && settings.lr < 1)) throw UsageError("--lr must be between 0 and 1", cli.usage());
    const bool dates = settings.task == "dates" && settings.data.empty();
    finish_standard_flags(cli, settings.run, chapter_dir, dates ? 1000 : 800, dates ? 150 : 200);
    if (settings.embedding == 0) settings.embedding = dates ? 32 : 64;
    settings.measured_defaults = settings.data.empty() && settings.load.empty();
    for (const char* flag : {"steps", "embedding", "hidden", "lr", "batch"})
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
    if (!settings.translate.empty()) {
        if (const std::optional<std::string> problem = data::utf8_problem(settings.translate))
            throw refuse("--translate: " + *problem);
        if (data::normalize_text(settings.translate).empty())
            throw refuse("--translate: the sentence is blank; give the words to translate");
    }
    try {
        if (!settings.save.empty()) {
            check_checkpoint_target(settings.save, "--save");
            if (is_inside(settings.run.out, settings.save))   // the figures would make it a folder that is not a checkpoint
                throw std::runtime_error("--save " + settings.save + ": --out " + settings.run.out +
                                         " is that folder or inside it; give the checkpoint a folder of its own");
        }
        if (!settings.data.empty()) require_regular_file(settings.data, "the corpus");
    } catch (const UsageError&) {
        throw;
    } catch (const std::runtime_error& error) {
        throw InputError(error.what());   // exit code 2, before any training
    }
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
    config.eval_every = std::max(1, settings.run.steps / 5);
    config.seed = settings.run.seed;
    config.label = label;
    return config;
}

namespace {

std::string settings_text(const Task& task, const ModelSizes& sizes) {
    std::ostringstream text;
    text << "task\t" << task.name << "\nembedding\t" << sizes.embedding << "\nhidden\t" << sizes.hidden << "\n";
    return text.str();
}

}  // namespace

template <class T>
void save_model(const Seq2SeqModel<T>& model, const Task& task, const AppSettings& settings, const std::string& dir) {
    save_checkpoint(model, dir,
                    {{"settings.txt", settings_text(task, model.sizes())},
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
    if (saved != settings_text(task, model.sizes()))
        throw std::runtime_error(dir + ": saved for other settings (" + data::join_tokens(data::split_words(saved), " ") +
                                 "); run with the same --task, --embedding and --hidden");
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
    data::Pair pair;
    pair.source = task.corpus.level == data::TokenLevel::character ? data::split_code_points(sentence)
                                                                   : data::split_words(sentence);
    if (pair.source.empty()) throw std::invalid_argument("--translate: the sentence is empty");
    std::vector<std::string> unknown;
    for (const std::string& token : pair.source)
        if (!task.source_vocab.contains(token)) unknown.push_back(token);
    if (!unknown.empty())
        std::cout << "  note: not in the training vocabulary (read as <unk>): " << data::join_tokens(unknown, " ") << "\n";
    return translate(model, task, {pair}).front();
}

namespace {
std::map<std::string, std::string> decisive_settings(const AppSettings& settings, const Task& task) {
    const auto number = [](double v) { return json_number(v); };
    return {{"task", task.name},
            {"data", settings.data.empty() ? "none" : settings.data},
            {"variant", settings.run.variant},
            {"seed", number(static_cast<double>(settings.run.seed))},
            {"steps", number(settings.run.steps)},
            {"quick", settings.run.quick ? "true" : "false"},
            {"embedding", number(settings.embedding)},
            {"hidden", number(settings.hidden)},
            {"batch", number(settings.batch)},
            {"lr", number(settings.lr)},
            {"loaded", settings.load.empty() ? "no" : settings.load}};
}
}  // namespace

void record_settings(const AppSettings& settings, const Task& task, Summary& summary) {
    for (const auto& [key, value] : decisive_settings(settings, task))
        if (key != "variant" && key != "seed" && key != "steps" && key != "quick") summary.setting(key, value);
}

bool same_settings(const std::map<std::string, std::string>& saved, const AppSettings& settings, const Task& task) {
    for (const auto& [key, value] : decisive_settings(settings, task)) {
        const auto found = saved.find(key);
        if (found == saved.end() || found->second != value) return false;
    }
    return true;
}

Ranges expected_ranges(const std::string& chapter, const AppSettings& settings, const Task& task) {
    if (!settings.measured_defaults) return {};
    // Measured with seeds 42, 1 and 2 (reference code); the ranges leave room for other seeds.
    const bool quick = settings.run.quick, dates = task.name == "dates";
    if (chapter == "01") {
        if (dates) return quick ? Ranges{{"test_bleu", {0.5, 0.8}}, {"test_exact_match", {0.03, 0.3}}, {"test_token_accuracy", {0.7, 0.9}}}
                                : Ranges{{"test_bleu", {0.98, 1.0}}, {"test_exact_match", {0.9, 1.0}}, {"test_token_accuracy", {0.98, 1.0}}};
        return quick ? Ranges{{"test_bleu", {0.0, 0.1}}, {"test_exact_match", {0.0, 0.05}}, {"test_token_accuracy", {0.0, 0.15}}}
                     : Ranges{{"test_bleu", {0.05, 0.2}}, {"test_exact_match", {0.0, 0.12}}, {"test_token_accuracy", {0.08, 0.3}},
                              {"longest_bucket_bleu", {0.02, 0.12}}};
    }
    if (dates) return quick ? Ranges{{"test_bleu", {0.85, 1.0}}, {"test_exact_match", {0.5, 1.0}}, {"test_token_accuracy", {0.85, 1.0}}}
                            : Ranges{{"test_bleu", {0.995, 1.0}}, {"test_exact_match", {0.99, 1.0}}, {"test_token_accuracy", {0.995, 1.0}}};
    return quick ? Ranges{{"test_bleu", {0.02, 0.2}}, {"test_exact_match", {0.0, 0.08}}, {"test_token_accuracy", {0.05, 0.3}}}
                 : Ranges{{"test_bleu", {0.95, 1.0}}, {"test_exact_match", {0.8, 1.0}}, {"test_token_accuracy", {0.9, 1.0}},
                          {"longest_bucket_bleu", {0.9, 1.0}}, {"longest_bucket_ratio", {3.0, 100.0}}};
}

void add_metric(Summary& summary, const Ranges& ranges, const std::string& key, const std::string& label, double value) {
    const auto found = ranges.find(key);
    if (found == ranges.end()) summary.metric(key, label, value);
    else summary.metric(key, label, value, found->second.first, found->second.second);
}

void report_buckets(const Evaluation& evaluation, const std::string& prefix, Summary& summary) {
    std::printf("    %-8s %6s %8s %10s %8s\n", "length", "count", "BLEU", "token acc", "exact");
    for (const BucketScores& bucket : evaluation.buckets) {
        std::printf("    %-8s %6zu %8.3f %10.3f %8.3f\n", bucket.label.c_str(), bucket.count, bucket.scores.bleu,
                    bucket.scores.token_accuracy, bucket.scores.exact_match);
        summary.setting(prefix + "count_" + bucket.label, static_cast<double>(bucket.count));
        summary.setting(prefix + "bleu_" + bucket.label, bucket.scores.bleu);
        summary.setting(prefix + "token_accuracy_" + bucket.label, bucket.scores.token_accuracy);
        summary.setting(prefix + "exact_match_" + bucket.label, bucket.scores.exact_match);
    }
    std::printf("    %-8s %6zu %8.3f %10.3f %8.3f\n", "all", evaluation.hypotheses.size(), evaluation.overall.bleu,
                evaluation.overall.token_accuracy, evaluation.overall.exact_match);
}

template void save_model(const Seq2SeqModel<float>&, const Task&, const AppSettings&, const std::string&);
template void load_model(Seq2SeqModel<float>&, const Task&, const AppSettings&, const std::string&);
template std::vector<std::string> translate_sentence(Seq2SeqModel<float>&, const Task&, const std::string&);

}  // namespace attn::ch01
