// Chapter 03, queries, keys and values: attention pulled out of the translation decoder into
// a layer of its own. Kernel regression as the simplest attention (a query scores every key,
// the scores become weights, the values are averaged with them), a kernel width learned by
// leave-one-out, a measurement of why scaled dot-product attention divides by sqrt(d), and
// the layer at work in a Luong-style decoder on chapter 02's task, against chapter 02's.
#include "chapters/01_encoder_decoder/app.hpp"
#include "chapters/01_encoder_decoder/figures.hpp"
#include "chapters/02_bahdanau_attention/alignment.hpp"
#include "chapters/03_queries_keys_values/comparison.hpp"
#include "chapters/03_queries_keys_values/figures.hpp"
#include "chapters/03_queries_keys_values/luong.hpp"
#include "chapters/03_queries_keys_values/kernel_regression.hpp"
#include "chapters/03_queries_keys_values/scaling.hpp"
#include "common/cli.hpp"
#include "common/data/tokenize.hpp"
#include "common/progress.hpp"
#include "common/random.hpp"
#include "common/summary.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <unistd.h>

using namespace attn;
using namespace attn::ch03;

namespace {

const std::string chapter_dir = "03_queries_keys_values";

struct Settings {
    ch01::AppSettings seq;       // the translation part: chapter 02's flags, task and budget
    std::string score = "dot";   // the decoder: Luong dot or general, or chapter 02's additive
    double initial_width = 1.0;
    int trials = 0;              // random queries per dimension in the sqrt(d) experiment
};

// The kernel width is learned with fixed settings (not flags: --steps and --lr are the
// translation model's, as in chapter 02).
constexpr double width_lr = 0.2;
int width_steps(bool quick) { return quick ? 100 : 300; }

// 02 against 03, bucket by bucket.
void print_comparison(const ch01::Evaluation& additive, const ch01::Evaluation& luong, const std::string& name) {
    std::printf("    %-8s %14s %14s\n", "length", "02 additive", ("03 " + name).c_str());
    for (std::size_t k = 0; k < luong.buckets.size(); ++k)
        std::printf("    %-8s %14.3f %14.3f\n", luong.buckets[k].label.c_str(), additive.buckets[k].scores.bleu,
                    luong.buckets[k].scores.bleu);
    std::printf("    %-8s %14.3f %14.3f\n", "all", additive.overall.bleu, luong.overall.bleu);
}

// The decoder that --score names.
std::unique_ptr<ch02::AttentionSeq2Seq<float>> make_decoder(const std::string& score, const ch01::ModelSizes& sizes,
                                                            Rng& rng) {
    if (score == "additive") return std::make_unique<ch02::BahdanauSeq2Seq<float>>(sizes, rng);
    return std::make_unique<LuongSeq2Seq<float>>(sizes, parse_luong_score(score), rng);
}

int run(int argc, char** argv) {
    Settings settings;
    CommandLine cli(argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "ch03",
                    "kernel regression as attention, a learned kernel width, and why attention divides by sqrt(d)");
    ch01::add_seq2seq_flags(cli, settings.seq, chapter_dir);
    cli.option("score", &settings.score, "the translation decoder: dot or general (Luong), or additive (chapter 02's)", "SCORE");
    cli.option("width", &settings.initial_width, "the kernel width w that training starts from");
    cli.option("trials", &settings.trials, "random queries per dimension in the sqrt(d) experiment (default 2000, quick 300)", 10, 100000);
    if (!cli.parse(argc, argv)) return 0;
    ch01::finish_seq2seq_flags(cli, settings.seq, chapter_dir);
    if (settings.score != "dot" && settings.score != "general" && settings.score != "additive")
        throw UsageError("--score must be dot, general or additive, got '" + settings.score + "'", cli.usage());
    if (!(settings.initial_width > 0 && settings.initial_width < 100))
        throw UsageError("--width must be between 0 and 100", cli.usage());
    const RunSettings& run = settings.seq.run;
    if (!cli.given("trials")) settings.trials = run.quick ? 300 : 2000;
    const std::filesystem::path out = run.out;
    Summary summary(chapter_dir, run);
    const Stopwatch clock;
    const bool measured = !cli.given("width") && !cli.given("trials");
    const auto metric = [&](const std::string& key, const std::string& label, double value, double lo, double hi) {
        if (measured) summary.metric(key, label, value, lo, hi);
        else summary.metric(key, label, value);
    };
    std::cout << "Chapter 03: queries, keys and values (" << run.variant << " code, seed " << run.seed << ")\n";

    // ---- 1. Kernel regression: each test input x is a query, the training inputs x_i are the
    //         keys, their targets y_i the values; f(x) = sum_i alpha(x, x_i) y_i.   (3.1)-(3.3)
    Rng rng(run.seed);
    const RegressionData data = make_regression_data(50, 51, rng);
    std::printf("\n1. Nadaraya-Watson regression of y = 2 sin x + x^0.8 + noise (sd 0.5), %zu training points on [0, 5]\n",
                data.x_train.size());
    std::printf("   %-28s %16s %22s\n", "pooling", "error vs truth", "leave-one-out error");
    std::vector<std::pair<std::string, Fit>> fits;
    const auto report = [&](const std::string& label, double width) {
        fits.push_back({label, fit_at_width(data, width)});
        const double truth_error = error_against_truth(data, fits.back().second.prediction);
        std::printf("   %-28s %16.4f %22.4f\n", label.c_str(), truth_error, leave_one_out_error(data, width));
        return truth_error;
    };
    const double average_error = report("average (w = 0)", 0.0);
    report("fixed width w = 1", 1.0);
    report("fixed width w = 10", 10.0);

    // ---- 2. The width learned by gradient descent on the leave-one-out error.
    std::printf("\n2. Learning w by Adam (lr %g) on the leave-one-out error, from w = %g, %d steps\n", width_lr,
                settings.initial_width, width_steps(run.quick));
    const WidthTraining training = learn_width(data, settings.initial_width, width_steps(run.quick), width_lr);
    char learned_label[32];
    std::snprintf(learned_label, sizeof learned_label, "learned w = %.2f", training.width);
    const double learned_error = report(learned_label, training.width);
    std::printf("   learned w = %.3f: leave-one-out error %.4f -> %.4f\n", training.width, training.loss.front(),
                training.loss.back());

    // ---- 3. Why divide by sqrt(d): random unit-variance q and k, scores over 32 keys.   (3.4)
    const int n_keys = 32;
    std::vector<int> dims;
    for (int d = 2; d <= 1024; d *= 2) dims.push_back(d);
    const std::vector<ScalingRow> rows = measure_scaling(dims, n_keys, settings.trials, rng);
    std::printf("\n3. Scores of %d random queries against %d random keys, entries N(0, 1):\n", settings.trials, n_keys);
    std::printf("   %6s %10s %15s %23s %23s %21s\n", "", "", "", "largest weight", "entropy / ln n", "|grad at scores|");
    std::printf("   %6s %10s %15s %11s %11s %11s %11s %10s %10s\n", "d", "Var(q.k)", "Var(q.k/sqrt d)", "q.k",
                "scaled", "q.k", "scaled", "q.k", "scaled");
    const double ln_n = std::log(static_cast<double>(n_keys));
    for (const ScalingRow& row : rows)
        std::printf("   %6d %10.1f %15.3f %11.3f %11.3f %11.3f %11.3f %10.2e %10.2e\n", row.d, row.score_variance,
                    row.scaled_score_variance, row.max_weight, row.scaled_max_weight, row.entropy / ln_n,
                    row.scaled_entropy / ln_n, row.gradient_norm, row.scaled_gradient_norm);

    // ---- 4. The layer in a decoder: Luong's query is the decoder's current state s_t, the keys
    //         and values the encoder states; h~_t = tanh(W_c [c_t; s_t]) predicts.   (3.11)
    const ch01::AppSettings& seq = settings.seq;
    const ch01::Task task = ch01::load_task(seq.task, seq.data, run.seed, run.quick, seq.swap,
                                            seq.level == "char" ? data::TokenLevel::character : data::TokenLevel::word);
    std::cout << "\n4. " << task.corpus.description << "\n";
    Rng model_rng(run.seed);
    const std::unique_ptr<ch02::AttentionSeq2Seq<float>> model = make_decoder(settings.score, ch01::model_sizes(seq, task), model_rng);
    const std::string name = settings.score == "additive" ? "additive" : "Luong " + settings.score;
    std::cout << "   decoder: " << name << ", " << model->parameter_count() << " parameters\n";
    ch01::TrainLog log;
    if (!seq.load.empty()) {
        ch01::load_model(*model, task, seq, seq.load);
    } else {
        std::cout << "   training for " << run.steps << " steps (chapter 02's budget)\n";
        log = ch01::train(*model, task, ch01::train_config(seq, "   training"),
                          [&](int step, double valid_loss) { std::cout << "   step " << step << ": validation loss " << valid_loss << "\n"; });
    }
    const ch01::Evaluation test = ch01::evaluate(*model, task, task.corpus.test);
    std::cout << "   greedy decoding of " << task.corpus.test.size() << " test sentences:\n";
    ch01::report_buckets(test, "test_", summary);
    AdditiveScores additive;
    if (settings.score != "additive") {
        additive = chapter02_scores(seq, task);
        std::cout << "\n   BLEU by source length, chapter 02's additive decoder (" << additive.origin << ") against this one:\n";
        print_comparison(additive.evaluation, test, settings.score);
        if (!log.steps.empty())
            std::printf("   training speed: %.1f steps/s here, %.1f for chapter 02's decoder\n", log.steps_per_second,
                        additive.steps_per_second);
    }
    if (!seq.translate.empty())
        std::cout << "\n   " << seq.translate << "\n   => "
                  << data::detokenize(ch01::translate_sentence(*model, task, seq.translate), task.corpus.level) << "\n";
    if (!seq.save.empty()) ch01::save_model(*model, task, seq, seq.save);

    // ---- 5. Figures and the summary.
    std::cout << "\n5. Figures in " << out.string() << ":\n";
    plot::save_and_report(regression_fits(data, fits), out, "kernel_regression");
    plot::save_and_report(kernel_weights(data, fits.back().second, "Attention weights of the learned kernel (queries x keys)"),
                          out, "kernel_weights");
    plot::save_and_report(width_training_curve(training.loss), out, "width_training");
    plot::save_and_report(score_variance(rows), out, "scaling_variance");
    plot::save_and_report(softmax_saturation(rows, n_keys), out, "scaling_softmax");
    plot::save_and_report(gradient_through_softmax(rows), out, "scaling_gradient");
    if (!log.steps.empty()) plot::save_and_report(ch01::loss_curves(log, "Chapter 03: the " + name + " decoder learning " + task.name), out, "loss_curves");
    if (settings.score != "additive")
        plot::save_and_report(ch01::scores_by_length({{"02 additive", &additive.evaluation}, {"03 " + name, &test}},
                                                     "Chapter 02 vs 03: BLEU by source length (test set)", "source length (tokens)"),
                              out, "scores_by_length");
    const std::vector<std::string> phrase = task.name == "translation" ? std::vector<std::string>{"zone", "économique", "européenne"}
                                                                      : std::vector<std::string>{};
    const ch02::Alignment example = ch02::align(*model, task, ch02::pick_example(task.corpus.test, phrase, 14),
                                                "Chapter 03: where the " + name + " decoder looked");
    plot::save_and_report(example.heatmap, out, "alignment");
    const ScalingRow& widest = rows.back();   // d = 1024
    ch01::record_settings(seq, task, summary);
    summary.setting("score", settings.score);
    summary.setting("steps_per_second", log.steps_per_second);
    summary.setting("trials", static_cast<double>(settings.trials));
    // Ranges: seeds 42, 1 and 2 at the default and --quick settings (they agree). A missing
    // 1/sqrt(d) in 03.2 or a kernel with the wrong sign in 03.1 falls outside them; the
    // untrained width is 1.
    metric("learned_width", "learned kernel width w", training.width, 2.0, 10.0);
    metric("learned_error_vs_truth", "learned kernel: mean squared error vs truth", learned_error, 0.0, 0.25);
    metric("average_error_vs_truth", "average pooling: mean squared error vs truth", average_error, 0.7, 1.1);
    metric("scaled_variance_1024", "Var(q.k / sqrt d) at d = 1024", widest.scaled_score_variance, 0.9, 1.1);
    metric("max_weight_1024", "largest weight at d = 1024, unscaled", widest.max_weight, 0.9, 1.0);
    metric("scaled_max_weight_1024", "largest weight at d = 1024, scaled", widest.scaled_max_weight, 0.13, 0.2);
    metric("gradient_ratio_1024", "|grad| scaled / unscaled at d = 1024",
           widest.scaled_gradient_norm / widest.gradient_norm, 3.0, 7.0);
    summary.metric("test_bleu", "test BLEU (" + name + ")", test.overall.bleu);
    summary.metric("longest_bucket_bleu", "BLEU on the longest sources (" + test.buckets.back().label + ")",
                   test.buckets.back().scores.bleu);
    std::cout << "\n" << plot::preview(example.heatmap, ::isatty(STDOUT_FILENO) == 1);
    const std::filesystem::path written = summary.finish(out, clock.seconds());
    std::cout << "  wrote " << written.string() << "\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return run_program("ch03", [&] { return run(argc, argv); });
}
