// Part 4 of chapter 03's run (see translation.hpp).
#include "chapters/03_queries_keys_values/translation.hpp"

#include "chapters/01_encoder_decoder/figures.hpp"
#include "chapters/01_encoder_decoder/memory_estimate.hpp"
#include "chapters/01_encoder_decoder/run_summary.hpp"
#include "chapters/02_bahdanau_attention/alignment.hpp"
#include "chapters/03_queries_keys_values/comparison.hpp"
#include "chapters/03_queries_keys_values/expected_ranges.hpp"
#include "chapters/03_queries_keys_values/luong.hpp"
#include "common/data/tokenize.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <unistd.h>

namespace attn::ch03 {

namespace {

// The decoder that --score names.
std::unique_ptr<ch02::AttentionSeq2Seq<float>> make_decoder(const std::string& score, const ch01::ModelSizes& sizes,
                                                            Rng& rng) {
    if (score == "additive") return std::make_unique<ch02::BahdanauSeq2Seq<float>>(sizes, rng);
    return std::make_unique<LuongSeq2Seq<float>>(sizes, parse_luong_score(score), rng);
}

// 02 against 03, bucket by bucket ("n/a" where the test set has no sentence of that length).
void print_comparison(const ch01::Evaluation& additive, const ch01::Evaluation& ours, const std::string& name) {
    std::printf("    %-8s %14s %14s\n", "length", "02 additive", ("03 " + name).c_str());
    for (std::size_t k = 0; k < ours.buckets.size(); ++k) {
        if (ours.buckets[k].count == 0) {
            std::printf("    %-8s %14s %14s\n", ours.buckets[k].label.c_str(), "n/a", "n/a");
            continue;
        }
        std::printf("    %-8s %14.3f %14.3f\n", ours.buckets[k].label.c_str(), additive.buckets[k].scores.bleu,
                    ours.buckets[k].scores.bleu);
    }
    std::printf("    %-8s %14.3f %14.3f\n", "all", additive.overall.bleu, ours.overall.bleu);
}

}  // namespace

ch01::Task load_translation_task(const ch01::AppSettings& settings) {
    ch01::Task task = ch01::load_task(settings.task, settings.data, settings.run.seed, settings.run.quick, settings.swap,
                                      settings.level == "char" ? data::TokenLevel::character : data::TokenLevel::word);
    ch01::require_gru_training_memory(settings, task);   // refused here, with the estimate, rather than a bad_alloc later
    return task;
}

void check_translation_load(const ch01::AppSettings& settings, const ch01::Task& task, const std::string& score) {
    if (settings.load.empty()) return;
    Rng rng(settings.run.seed);
    const std::unique_ptr<ch02::AttentionSeq2Seq<float>> model = make_decoder(score, ch01::model_sizes(settings, task), rng);
    ch01::load_model(*model, task, settings, settings.load);   // throws what does not fit (another --score, say)
}

void run_translation(const ch01::AppSettings& settings, const ch01::Task& task, const std::string& score, Summary& summary,
                     const std::filesystem::path& out) {
    const RunSettings& run = settings.run;
    std::cout << "\n4. " << task.corpus.description << "\n";
    // Chapter 02's saved run, read now: a broken summary.json stops us before training.
    const std::optional<AdditiveScores> saved02 =
        score != "additive" ? saved_chapter02_scores(settings, task) : std::optional<AdditiveScores>{};
    Rng rng(run.seed);
    const std::unique_ptr<ch02::AttentionSeq2Seq<float>> model = make_decoder(score, ch01::model_sizes(settings, task), rng);
    const std::string name = score == "additive" ? "additive" : "Luong " + score;
    std::cout << "   decoder: " << name << ", " << model->parameter_count() << " parameters\n";
    ch01::TrainLog log;
    if (!settings.load.empty()) {
        ch01::load_model(*model, task, settings, settings.load);
    } else {
        std::cout << "   training for " << run.steps << " steps (chapter 02's recipe: Adam, lr " << settings.lr
                  << ch01::learning_rate_decay(settings) << ")\n";
        log = ch01::train(*model, task, ch01::train_config(settings, "   training"), [&](int step, double valid_loss) {
            std::cout << "   step " << step << ": validation loss " << valid_loss << "\n";
        });
    }
    // Saved as soon as training ends: nothing after it (a long sentence, a full disk for the figures) can lose it.
    if (!settings.save.empty()) ch01::save_model(*model, task, settings, settings.save);
    const ch01::Evaluation test = ch01::evaluate(*model, task, task.corpus.test);
    std::cout << "   greedy decoding of " << task.corpus.test.size() << " test sentences:\n";
    ch01::print_buckets(test);

    // Against chapter 02's additive decoder, on the same task and budget.
    AdditiveScores additive;
    if (score != "additive") {
        additive = saved02 ? *saved02 : train_chapter02(settings, task);
        std::cout << "\n   BLEU by source length, chapter 02's additive decoder (" << additive.origin << ") against this one:\n";
        print_comparison(additive.run.test, test, score);
        if (run.quick && test.overall.bleu > additive.run.test.overall.bleu)   // the reversal a --quick reader sees
            std::printf("   (--quick: after %d steps neither decoder is trained, and this one is ahead. One likely reason: its\n"
                        "   score has no weights of its own to learn, so useful alignments come sooner. At chapter 02's full\n"
                        "   budget the additive decoder catches up and comes out ahead, as the lesson's default run shows.)\n",
                        run.steps);
        if (!log.steps.empty() && additive.run.train_seconds > 0)
            std::printf("   training: %d steps in %.0f s here (%.1f steps/s), %d steps in %.0f s for chapter 02's decoder (%.1f steps/s)\n",
                        run.steps, log.seconds, log.steps_per_second, additive.run.steps, additive.run.train_seconds,
                        additive.run.steps / additive.run.train_seconds);
    }
    if (!settings.translate.empty()) ch01::show_translation(*model, task, settings.translate, "  ");

    // Figures.
    std::cout << "\n   Figures of the decoder in " << out.string() << ":\n";
    if (!log.steps.empty())
        summary.figure(plot::save_and_report(ch01::loss_curves(log, "Chapter 03: the " + name + " decoder learning " + task.name),
                                             out, "loss_curves"));
    if (score != "additive")
        summary.figure(plot::save_and_report(ch01::scores_by_length({{"02 additive", &additive.run.test}, {"03 " + name, &test}},
                                                                    "Chapter 02 vs 03: BLEU by source length (test set)", "source length (tokens)"),
                                             out, "scores_by_length"));
    const std::vector<std::string> phrase = task.name == "translation" ? std::vector<std::string>{"zone", "économique", "européenne"}
                                                                      : std::vector<std::string>{};
    const data::Pair& pair = ch02::pick_example(task.corpus.test, phrase, 14);
    const ch02::Alignment example = ch02::align(*model, task, pair, "Chapter 03: where the " + name + " decoder looked");
    summary.figure(plot::save_and_report(example.heatmap, out, "alignment"));
    summary.attention(example.heatmap,
                      {"the figure's sentence", name + " cross", 1, 1, data::detokenize(pair.target, task.corpus.level)});
    std::cout << "\n" << plot::preview(example.heatmap, ::isatty(STDOUT_FILENO) == 1);

    // This decoder's run, recorded as chapter 02 records its own, and the comparison.
    summary.setting("score", score);
    summary.setting("steps_per_second", log.steps_per_second);
    const Ranges ranges = score == "dot" ? ch01::ranges_for(expected_ranges(), settings, task) : Ranges{};
    ch01::write_run(summary, {ch01::decisive_settings(settings, task), log.steps.empty() ? 0 : run.steps, log.seconds, test},
                    ranges);
    if (score != "additive") {
        summary.setting("chapter02_source", additive.origin);
        summary.setting("chapter02_steps", additive.run.steps);
        summary.setting("chapter02_train_seconds", additive.run.train_seconds);
        const ch01::BucketScores &longest03 = test.buckets.back(), &longest02 = additive.run.test.buckets.back();
        if (longest03.count > 0 && longest02.count > 0)
            add_metric(summary, ranges, "longest_bucket_ratio", "longest sources: BLEU 03 / BLEU 02",
                       longest03.scores.bleu / std::max(longest02.scores.bleu, 1e-9));
    }
}

}  // namespace attn::ch03
