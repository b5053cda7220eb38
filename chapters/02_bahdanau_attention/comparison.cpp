// Chapter 01's scores for the comparison (see comparison.hpp).
#include "chapters/02_bahdanau_attention/comparison.hpp"

#include "common/summary.hpp"

#include <string>

namespace attn::ch02 {

namespace {
const std::string chapter01_dir = "01_encoder_decoder";
}

ch01::AppSettings chapter01_settings(const ch01::AppSettings& settings) {
    // Chapter 01 trains on its own recipe, except for what the command line set for both.
    const ch01::Recipe& recipe =
        ch01::recipe_for(ch01::chapter01_recipes, settings.task, !settings.data.empty(), settings.run.quick);
    ch01::AppSettings chapter01 = settings;
    if (!settings.steps_given) chapter01.run.steps = recipe.steps;
    if (!settings.lr_given) chapter01.lr = recipe.lr;
    if (!settings.lr_end_given) chapter01.lr_end = recipe.lr_end;
    chapter01.warmup = recipe.warmup;   // a later chapter's schedule is not chapter 01's
    chapter01.label_smoothing = recipe.label_smoothing;
    chapter01.load.clear();
    return chapter01;
}

std::optional<Chapter01Scores> saved_chapter01_scores(const ch01::AppSettings& settings, const ch01::Task& task) {
    const std::optional<ch01::SavedRun> found = ch01::find_saved_run(chapter01_dir, chapter01_settings(settings), task);
    if (!found) return std::nullopt;
    return Chapter01Scores{found->run, found->origin};
}

Chapter01Scores train_chapter01(const ch01::AppSettings& settings, const ch01::Task& task) {
    const ch01::AppSettings chapter01 = chapter01_settings(settings);
    Rng rng(settings.run.seed);
    ch01::ContextSeq2Seq<float> model(ch01::model_sizes(chapter01, task), rng);
    const ch01::SavedRun trained =
        ch01::train_missing_run(model, chapter01_dir, chapter01, task, std::to_string(chapter01.run.steps) + " steps");
    return {trained.run, trained.origin};
}

}  // namespace attn::ch02
