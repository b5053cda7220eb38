// Chapter 02's scores for the comparison (see comparison.hpp).
#include "chapters/03_queries_keys_values/comparison.hpp"

#include "chapters/02_bahdanau_attention/bahdanau.hpp"

#include <iostream>

namespace attn::ch03 {

AdditiveScores chapter02_scores(const ch01::AppSettings& settings, const ch01::Task& task) {
    ch01::AppSettings chapter02 = settings;   // the same budget: chapter 03 trains on chapter 02's
    chapter02.load.clear();
    std::vector<std::string> variants = {"reference"};
    if (settings.run.variant == "mine") variants.insert(variants.begin(), "mine");
    std::string looked_in;
    for (const std::string& variant : variants) {
        chapter02.run.variant = variant;
        const std::filesystem::path saved = default_out_dir("02_bahdanau_attention", variant == "mine") / "summary.json";
        if (ch01::has_run(saved, ch01::decisive_settings(chapter02, task))) {
            const std::string whose = variant == "mine" ? "your chapter 02 run" : "the reference chapter 02 run";
            return {ch01::read_run(saved, task), whose + ", " + saved.string()};
        }
        looked_in += (looked_in.empty() ? "" : " or ") + saved.string();
    }
    std::cout << "   no chapter 02 run with these settings in " << looked_in << ": training chapter 02's model now ("
              << chapter02.run.steps << " steps)\n";
    Rng rng(settings.run.seed);
    ch02::BahdanauSeq2Seq<float> model(ch01::model_sizes(chapter02, task), rng);
    const ch01::TrainLog log = ch01::train(model, task, ch01::train_config(chapter02, "   chapter 02"));
    ch01::Evaluation test = ch01::evaluate(model, task, task.corpus.test);
    test.hypotheses.clear();
    return {{ch01::decisive_settings(chapter02, task), chapter02.run.steps, log.seconds, test},
            "trained now with " + code_name(settings.run) + " and the same settings"};
}

}  // namespace attn::ch03
