// Chapter 02's scores for the comparison (see comparison.hpp).
#include "chapters/03_queries_keys_values/comparison.hpp"

#include "chapters/02_bahdanau_attention/bahdanau.hpp"

#include <string>

namespace attn::ch03 {

namespace {
const std::string chapter02_dir = "02_bahdanau_attention";
}

namespace {
ch01::AppSettings chapter02_settings(const ch01::AppSettings& settings) {
    ch01::AppSettings chapter02 = settings;   // the same budget: chapter 03 trains on chapter 02's
    chapter02.load.clear();
    return chapter02;
}
}  // namespace

std::optional<AdditiveScores> saved_chapter02_scores(const ch01::AppSettings& settings, const ch01::Task& task) {
    const std::optional<ch01::SavedRun> found = ch01::find_saved_run(chapter02_dir, chapter02_settings(settings), task);
    if (!found) return std::nullopt;
    return AdditiveScores{found->run, found->origin};
}

AdditiveScores train_chapter02(const ch01::AppSettings& settings, const ch01::Task& task) {
    const ch01::AppSettings chapter02 = chapter02_settings(settings);
    Rng rng(settings.run.seed);
    ch02::BahdanauSeq2Seq<float> model(ch01::model_sizes(chapter02, task), rng);
    const ch01::SavedRun trained =
        ch01::train_missing_run(model, chapter02_dir, chapter02, task, std::to_string(chapter02.run.steps) + " steps");
    return {trained.run, trained.origin};
}

}  // namespace attn::ch03
