// summary.json of a seq2seq run, written and read back (see run_summary.hpp).
#include "chapters/01_encoder_decoder/run_summary.hpp"

#include <iostream>
#include <vector>

namespace attn::ch01 {

namespace {

// The keys, spelled once for the writer and the reader.
const std::string train_seconds_key = "train_seconds";
const std::string train_cpu_seconds_key = "train_cpu_seconds";
const std::string test_count_key = "test_count";
std::string bucket_key(const std::string& score, const std::string& label) { return "test_" + score + "_" + label; }
struct ScoreKey {
    const char* name;                  // "bleu": the metric test_bleu, the settings test_bleu_1-10, ...
    double metrics::Scores::*field;
};
const ScoreKey score_keys[] = {{"bleu", &metrics::Scores::bleu},
                               {"token_accuracy", &metrics::Scores::token_accuracy},
                               {"exact_match", &metrics::Scores::exact_match}};
const char* score_labels[] = {"test BLEU", "test token accuracy", "test exact match"};

}  // namespace

void write_run(Summary& summary, const RunRecord& run, const Ranges& ranges) {
    for (const auto& [key, value] : run.settings)   // the Summary records variant, seed, steps and quick itself
        if (key != "variant" && key != "seed" && key != "steps" && key != "quick") summary.setting(key, value);
    summary.setting(train_seconds_key, run.train_seconds);
    if (run.train_cpu_seconds > 0) summary.setting(train_cpu_seconds_key, run.train_cpu_seconds);
    summary.setting(test_count_key, static_cast<double>(run.test.count));
    for (const BucketScores& bucket : run.test.buckets) {
        summary.setting(bucket_key("count", bucket.label), static_cast<double>(bucket.count));
        if (bucket.count == 0) continue;   // nothing scored: no numbers, rather than a misleading 0
        for (const ScoreKey& score : score_keys) summary.setting(bucket_key(score.name, bucket.label), bucket.scores.*score.field);
    }
    for (std::size_t i = 0; i < std::size(score_keys); ++i)
        add_metric(summary, ranges, std::string("test_") + score_keys[i].name, score_labels[i], run.test.overall.*score_keys[i].field);
    const BucketScores& longest = run.test.buckets.back();
    if (longest.count > 0)
        add_metric(summary, ranges, "longest_bucket_bleu", "BLEU on the longest sources (" + longest.label + ")", longest.scores.bleu);
}

bool has_run(const std::filesystem::path& path, const std::map<std::string, std::string>& settings) {
    if (!std::filesystem::exists(path)) return false;
    const SavedSummary saved(path);
    for (const auto& [key, value] : settings)
        if (!saved.has(key) || saved.text(key) != value) return false;
    return true;
}

RunRecord read_run(const std::filesystem::path& path, const Task& task) {
    const SavedSummary saved(path);
    RunRecord run;
    for (const char* key : {"task", "data", "variant", "seed", "steps", "quick"}) run.settings[key] = saved.text(key);
    run.steps = static_cast<int>(saved.number("steps"));
    run.train_seconds = saved.number(train_seconds_key);
    if (saved.has(train_cpu_seconds_key)) run.train_cpu_seconds = saved.number(train_cpu_seconds_key);
    run.test.count = static_cast<std::size_t>(saved.number(test_count_key));
    for (const ScoreKey& score : score_keys) run.test.overall.*score.field = saved.number(std::string("test_") + score.name);
    for (const Bucket& range : length_buckets(task)) {
        BucketScores bucket;
        bucket.label = range.label;
        bucket.count = static_cast<std::size_t>(saved.number(bucket_key("count", bucket.label)));
        if (bucket.count > 0)
            for (const ScoreKey& score : score_keys) bucket.scores.*score.field = saved.number(bucket_key(score.name, bucket.label));
        run.test.buckets.push_back(bucket);
    }
    return run;
}

namespace {
// Where a chapter's runs are looked for: with --mine the learner's own run first.
std::vector<std::string> variants_to_try(const AppSettings& settings) {
    if (settings.run.variant == "mine") return {"mine", "reference"};
    return {"reference"};
}
std::filesystem::path saved_summary(const std::string& chapter_dir, const std::string& variant) {
    return default_out_dir(chapter_dir, variant == "mine") / "summary.json";
}
}  // namespace

std::optional<SavedRun> find_saved_run(const std::string& chapter_dir, AppSettings settings, const Task& task) {
    const std::string chapter = "chapter " + chapter_dir.substr(0, 2);
    for (const std::string& variant : variants_to_try(settings)) {
        settings.run.variant = variant;
        const std::filesystem::path saved = saved_summary(chapter_dir, variant);
        if (has_run(saved, decisive_settings(settings, task))) {
            const std::string whose = variant == "mine" ? "your " + chapter + " run" : "the reference " + chapter + " run";
            return SavedRun{read_run(saved, task), whose + ", " + saved.string()};
        }
    }
    return std::nullopt;
}

std::string saved_run_paths(const std::string& chapter_dir, const AppSettings& settings) {
    std::string paths;
    for (const std::string& variant : variants_to_try(settings))
        paths += (paths.empty() ? "" : " or ") + saved_summary(chapter_dir, variant).string();
    return paths;
}

SavedRun train_missing_run(Seq2SeqModel<float>& model, const std::string& chapter_dir, const AppSettings& settings,
                           const Task& task, const std::string& cost) {
    const std::string chapter = "chapter " + chapter_dir.substr(0, 2);
    std::cout << "   no " << chapter << " run with these settings in " << saved_run_paths(chapter_dir, settings)
              << ": training " << chapter << "'s model now (" << cost << ";\n   `./course run "
              << chapter_dir.substr(0, 2) << (settings.run.quick ? " --quick" : "")
              << (settings.run.seed != RunSettings{}.seed ? " --seed " + std::to_string(settings.run.seed) : "")
              << "` once saves it for the next runs)\n";
    const CpuStopwatch cpu;
    const TrainLog log = train(model, task, train_config(settings, "   " + chapter));
    const double cpu_seconds = cpu.seconds();
    Evaluation test = evaluate(model, task, task.corpus.test);
    test.hypotheses.clear();
    RunRecord run{decisive_settings(settings, task), settings.run.steps, log.seconds, test, cpu_seconds};
    // With --mine, "your code" alone would credit the learner with earlier exercises that are
    // still stubs (a learner who started at a later chapter): name the reference's stand-ins.
    std::string whose = code_name(settings.run);
    if (settings.run.variant == "mine" && !reference_stand_ins().empty())
        whose += ", the reference standing in for your stubs " + reference_stand_ins() + ",";
    return {run, "trained now with " + whose + " and the same settings"};
}

}  // namespace attn::ch01
