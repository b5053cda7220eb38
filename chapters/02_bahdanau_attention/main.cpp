// Chapter 02, Bahdanau attention: the same encoder, but a decoder that looks back at every
// source position at every step. We train it on chapter 01's task and budget, compare the
// two by source length, and draw where it looked.
#include "chapters/01_encoder_decoder/app.hpp"
#include "chapters/01_encoder_decoder/figures.hpp"
#include "chapters/01_encoder_decoder/memory_estimate.hpp"
#include "chapters/02_bahdanau_attention/alignment.hpp"
#include "chapters/02_bahdanau_attention/bahdanau.hpp"
#include "chapters/02_bahdanau_attention/budget.hpp"
#include "chapters/02_bahdanau_attention/comparison.hpp"
#include "chapters/02_bahdanau_attention/expected_ranges.hpp"
#include "common/data/tokenize.hpp"
#include "common/progress.hpp"

#include <cstdio>
#include <iostream>
#include <unistd.h>

using namespace attn;
using namespace attn::ch02;

namespace {

const std::string chapter_dir = "02_bahdanau_attention";

// The attention model costs about twice as much per step as chapter 01's, so within the same
// three minutes it trains for 1200 steps to chapter 01's 3000 (budget.hpp; its validation
// loss has flattened by then); the comparison prints both budgets.

// 01 against 02, bucket by bucket ("n/a" where the test set has no sentence of that length).
void print_comparison(const ch01::Evaluation& before, const ch01::Evaluation& after) {
    std::printf("    %-8s %10s %10s %8s\n", "length", "01 BLEU", "02 BLEU", "02 / 01");
    for (std::size_t k = 0; k < after.buckets.size(); ++k) {
        const double b01 = before.buckets[k].scores.bleu, b02 = after.buckets[k].scores.bleu;
        if (after.buckets[k].count == 0 || before.buckets[k].count == 0)
            std::printf("    %-8s %10s %10s %8s\n", after.buckets[k].label.c_str(), "n/a", "n/a", "n/a");
        else
            std::printf("    %-8s %10.3f %10.3f %8.2f\n", after.buckets[k].label.c_str(), b01, b02, b02 / std::max(b01, 1e-9));
    }
}

// "1200 steps in 95 s" (or "loaded, not trained here").
std::string budget(int steps, double seconds) {
    if (steps == 0) return "loaded, not trained here";
    char text[64];
    std::snprintf(text, sizeof text, "%d steps in %.0f s", steps, seconds);
    return text;
}

int run(int argc, char** argv) {
    ch01::AppSettings settings;
    CommandLine cli(argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "ch02",
                    "Bahdanau attention, compared with chapter 01's context vector");
    ch01::add_seq2seq_flags(cli, settings, chapter_dir, chapter02_recipes);
    if (!cli.parse(argc, argv)) return 0;
    ch01::finish_seq2seq_flags(cli, settings, chapter_dir, chapter02_recipes);
    if (settings.print_ranges) {
        std::cout << ranges_markdown(expected_ranges());
        return 0;
    }
    const Stopwatch clock;
    std::cout << "Chapter 02: Bahdanau attention (" << code_name(settings.run) << ", seed " << settings.run.seed << ")\n";

    // ---- 1. The same task as chapter 01.
    const ch01::Task task = ch01::load_task(settings.task, settings.data, settings.run.seed, settings.run.quick, settings.swap,
                                settings.level == "char" ? data::TokenLevel::character : data::TokenLevel::word);
    std::cout << "\n1. " << task.corpus.description << "\n";

    // Chapter 01's saved run, read now: a broken summary.json stops us before training.
    const std::optional<Chapter01Scores> saved01 = saved_chapter01_scores(settings, task);

    // ---- 2. The attention model: keys W_k h_j once (2.1); at each step score (2.2), mask and
    //         normalise (2.3), average (2.4), and feed [embedding; c_t] to the GRU (2.5)-(2.7).
    Rng rng(settings.run.seed);
    ch01::require_gru_training_memory(settings, task);   // refused here, with the estimate, rather than a bad_alloc later
    BahdanauSeq2Seq<float> model(ch01::model_sizes(settings, task), rng);
    std::cout << "\n2. Encoder-decoder with additive attention: " << model.parameter_count() << " parameters\n";
    ch01::TrainLog log;
    double train_cpu_seconds = 0;
    if (!settings.load.empty()) {
        ch01::load_model(model, task, settings, settings.load);
    } else {
        const ch01::AppSettings chapter01 = chapter01_settings(settings);
        std::cout << "\n3. Training for " << settings.run.steps << " steps (batch " << settings.batch << ", Adam, lr "
                  << settings.lr << ch01::learning_rate_decay(settings) << "); chapter 01 trains for "
                  << chapter01.run.steps << " steps at lr " << chapter01.lr << ch01::learning_rate_decay(chapter01) << "\n";
        const std::vector<data::Pair> peek(task.corpus.validation.begin(),
                                           task.corpus.validation.begin() + std::min<std::ptrdiff_t>(2, task.corpus.validation.size()));
        const ch01::CpuStopwatch cpu;
        log = ch01::train(model, task, ch01::train_config(settings, "   training"), [&](int step, double valid_loss) {
            std::cout << "   step " << step << ": validation loss " << valid_loss << "\n";
            ch01::show_examples(task, peek, ch01::translate(model, task, peek), peek.size());
        });
        train_cpu_seconds = cpu.seconds();
    }
    // Saved as soon as training ends: nothing after it (a long sentence, a full disk for the figures) can lose it.
    if (!settings.save.empty()) ch01::save_model(model, task, settings, settings.save);

    // ---- 4. Test scores by source length, against chapter 01.
    std::cout << "\n4. Greedy decoding of " << task.corpus.test.size() << " test sentences:\n";
    Summary summary("02_bahdanau_attention", settings.run);
    const ch01::Evaluation test = ch01::evaluate(model, task, task.corpus.test);
    ch01::print_buckets(test);
    ch01::show_examples(task, task.corpus.test, test.hypotheses, 3);
    std::cout << "\n   Chapter 01 on the same task and test set:\n";
    const Chapter01Scores before = saved01 ? *saved01 : train_chapter01(settings, task);
    std::cout << "   (chapter 01's numbers: " << before.origin << ")\n";
    print_comparison(before.run.test, test);
    std::cout << "   budgets: chapter 01 " << budget(before.run.steps, before.run.train_seconds) << ", chapter 02 "
              << budget(log.steps.empty() ? 0 : settings.run.steps, log.seconds)
              << " (same data, sizes and batch, each at its own chapter's learning rate; wall times depend on the machine)\n";

    // ---- 5. Figures: the scores of both chapters, the loss, and two alignments.
    const std::filesystem::path out = settings.run.out;
    std::cout << "\n5. Figures in " << out.string() << ":\n";
    if (!log.steps.empty())
        summary.figure(plot::save_and_report(ch01::loss_curves(log, "Chapter 02: learning " + task.name + " with attention"), out,
                                             "loss_curves"));
    summary.figure(plot::save_and_report(ch01::scores_by_length({{"01 context vector", &before.run.test}, {"02 attention", &test}},
                                                                "Chapter 01 vs 02: scores by source length (test set)", "source length (tokens)"),
                                         out, "scores_by_length"));
    const std::vector<std::string> phrase = task.name == "translation" ? std::vector<std::string>{"zone", "économique", "européenne"}
                                                                      : std::vector<std::string>{};
    const data::Pair& pair = pick_example(task.corpus.test, phrase, 14);
    const Alignment example = align(model, task, pair, "Chapter 02: where the decoder looked (" + task.name + ")");
    summary.figure(plot::save_and_report(example.heatmap, out, "alignment"));
    summary.attention(example.heatmap,
                      {"the figure's sentence", "cross", 1, 1, data::detokenize(pair.target, task.corpus.level)});
    // A few more test sentences for the report's explorer, aligned the same way.
    for (std::size_t k = 0; k < std::min<std::size_t>(3, task.corpus.test.size()); ++k) {
        const data::Pair& more = task.corpus.test[k];
        const std::string name = "test sentence " + std::to_string(k + 1);
        summary.attention(align(model, task, more, "Chapter 02: " + name).heatmap,
                          {name, "cross", 1, 1, data::detokenize(more.target, task.corpus.level)});
    }
    std::cout << "\n" << plot::preview(example.heatmap, ::isatty(STDOUT_FILENO) == 1);

    // ---- 6. Your own sentence, with its alignment (the model was saved when training ended).
    if (!settings.translate.empty()) {
        std::cout << "\n6. " << settings.translate << "\n";
        const data::Pair yours = ch01::read_sentence(task, settings.translate);   // notes unknown words
        const Alignment mine = align(model, task, yours, "Your sentence");
        std::cout << "   => " << data::detokenize(mine.output, task.corpus.level) << "\n"
                  << plot::preview(mine.heatmap, ::isatty(STDOUT_FILENO) == 1);
        summary.figure(plot::save_and_report(mine.heatmap, out, "alignment_yours"));
        summary.attention(mine.heatmap, {"your sentence", "cross", 1, 1, ""});
    }

    summary.setting("steps_per_second", log.steps_per_second);
    if (!log.valid_loss.empty()) summary.setting("final_valid_loss", log.valid_loss.back());
    summary.setting("chapter01_source", before.origin);
    summary.setting("chapter01_steps", before.run.steps);
    summary.setting("chapter01_train_seconds", before.run.train_seconds);
    const Ranges ranges = ch01::ranges_for(expected_ranges(), settings, task);
    ch01::write_run(summary, {ch01::decisive_settings(settings, task), log.steps.empty() ? 0 : settings.run.steps, log.seconds, test,
                              train_cpu_seconds},
                    ranges);
    const ch01::BucketScores &longest02 = test.buckets.back(), &longest01 = before.run.test.buckets.back();
    if (longest02.count > 0 && longest01.count > 0)
        add_metric(summary, ranges, "longest_bucket_ratio", "longest sources: BLEU 02 / BLEU 01",
                   longest02.scores.bleu / std::max(longest01.scores.bleu, 1e-9));
    summary.finish(out, clock.seconds());   // prints where summary.json and report.html are
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return run_program("ch02", [&] { return run(argc, argv); });
}
