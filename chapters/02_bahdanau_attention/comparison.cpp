// Chapter 01's scores for the comparison (see comparison.hpp).
#include "chapters/02_bahdanau_attention/comparison.hpp"

#include "common/summary.hpp"

#include <iostream>
#include <vector>

namespace attn::ch02 {

namespace {
const std::string chapter01_dir = "01_encoder_decoder";
}

ch01::AppSettings chapter01_settings(const ch01::AppSettings& settings) {
    ch01::AppSettings chapter01 = settings;
    if (!settings.steps_given)
        chapter01.run.steps = ch01::default_steps(ch01::chapter01_steps, settings.task, !settings.data.empty(), settings.run.quick);
    chapter01.load.clear();
    return chapter01;
}

namespace {
// Where chapter 01's runs are looked for: with --mine the learner's own run first.
std::vector<std::string> chapter01_variants(const ch01::AppSettings& settings) {
    if (settings.run.variant == "mine") return {"mine", "reference"};
    return {"reference"};
}

std::filesystem::path saved_summary(const std::string& variant) {
    return default_out_dir(chapter01_dir, variant == "mine") / "summary.json";
}
}  // namespace

std::optional<Chapter01Scores> saved_chapter01_scores(const ch01::AppSettings& settings, const ch01::Task& task) {
    ch01::AppSettings chapter01 = chapter01_settings(settings);
    for (const std::string& variant : chapter01_variants(settings)) {
        chapter01.run.variant = variant;
        const std::filesystem::path saved = saved_summary(variant);
        if (ch01::has_run(saved, ch01::decisive_settings(chapter01, task))) {
            const std::string whose = variant == "mine" ? "your chapter 01 run" : "the reference chapter 01 run";
            return Chapter01Scores{ch01::read_run(saved, task), whose + ", " + saved.string()};
        }
    }
    return std::nullopt;
}

Chapter01Scores train_chapter01(const ch01::AppSettings& settings, const ch01::Task& task) {
    const ch01::AppSettings chapter01 = chapter01_settings(settings);
    std::string looked_in;
    for (const std::string& variant : chapter01_variants(settings))
        looked_in += (looked_in.empty() ? "" : " or ") + saved_summary(variant).string();
    std::cout << "   no chapter 01 run with these settings in " << looked_in << ": training chapter 01's model now ("
              << chapter01.run.steps << " steps)\n";
    Rng rng(settings.run.seed);
    ch01::ContextSeq2Seq<float> model(ch01::model_sizes(chapter01, task), rng);
    const ch01::TrainLog log = ch01::train(model, task, ch01::train_config(chapter01, "   chapter 01"));
    ch01::Evaluation test = ch01::evaluate(model, task, task.corpus.test);
    test.hypotheses.clear();
    return {{ch01::decisive_settings(chapter01, task), chapter01.run.steps, log.seconds, test},
            "trained now with " + code_name(settings.run) + " and the same settings"};
}

}  // namespace attn::ch02
