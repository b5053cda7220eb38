// Chapter 02's scores for the comparison (see comparison.hpp).
#include "chapters/03_queries_keys_values/comparison.hpp"

#include "chapters/02_bahdanau_attention/bahdanau.hpp"

#include <iostream>

namespace attn::ch03 {

namespace {
const std::string chapter02_dir = "02_bahdanau_attention";
}

AdditiveScores chapter02_scores(const ch01::AppSettings& settings, const ch01::Task& task) {
    ch01::AppSettings chapter02 = settings;   // the same budget: chapter 03 trains on chapter 02's
    chapter02.load.clear();
    if (const std::optional<ch01::SavedRun> found = ch01::find_saved_run(chapter02_dir, chapter02, task))
        return {found->run, found->origin};
    std::cout << "   no chapter 02 run with these settings in " << ch01::saved_run_paths(chapter02_dir, settings)
              << ": training chapter 02's model now ("
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
