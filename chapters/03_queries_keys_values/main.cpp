// Chapter 03, queries, keys and values: attention pulled out of the translation decoder into
// a layer of its own. Kernel regression as the simplest attention (a query scores every key,
// the scores become weights, the values are averaged with them), a kernel width learned by
// leave-one-out, a measurement of why scaled dot-product attention divides by sqrt(d), and
// the layer at work in a Luong-style decoder on chapter 02's task, against chapter 02's.
#include "chapters/01_encoder_decoder/app.hpp"
#include "chapters/02_bahdanau_attention/budget.hpp"
#include "chapters/03_queries_keys_values/expected_ranges.hpp"
#include "chapters/03_queries_keys_values/figures.hpp"
#include "chapters/03_queries_keys_values/kernel_regression.hpp"
#include "chapters/03_queries_keys_values/scaling.hpp"
#include "chapters/03_queries_keys_values/translation.hpp"
#include "common/cli.hpp"
#include "common/progress.hpp"
#include "common/random.hpp"
#include "common/summary.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <unistd.h>

using namespace attn;
using namespace attn::ch03;

namespace {

const std::string chapter_dir = "03_queries_keys_values";

struct Settings {
    ch01::AppSettings seq;       // the translation part: chapter 02's flags, task and budget
    std::string score = "dot";   // the decoder: Luong dot or general, or chapter 02's additive
    bool no_translation = false;  // parts 1-3 only (seconds)
    double initial_width = 1.0;
    int trials = 0;              // random queries per dimension in the sqrt(d) experiment
};

// The kernel width is learned with fixed settings (not flags: --steps and --lr are the
// translation model's, as in chapter 02).
constexpr double width_lr = 0.2;
int width_steps(bool quick) { return quick ? 100 : 300; }

int run(int argc, char** argv) {
    Settings settings;
    CommandLine cli(argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "ch03",
                    "kernel regression as attention, a learned kernel width, why attention divides by sqrt(d), and a Luong decoder");
    ch01::add_seq2seq_flags(cli, settings.seq, chapter_dir, ch02::chapter02_recipes);
    cli.option("score", &settings.score, "the translation decoder: dot or general (Luong), or additive (chapter 02's)", "SCORE");
    cli.flag("no-translation", &settings.no_translation, "run parts 1-3 only (kernel regression and the sqrt(d) experiment: seconds)");
    cli.option("width", &settings.initial_width, "the kernel width w that training starts from");
    cli.option("trials", &settings.trials, "random queries per dimension in the sqrt(d) experiment (default 2000, quick 300)", 10, 100000);
    if (!cli.parse(argc, argv)) return 0;
    ch01::finish_seq2seq_flags(cli, settings.seq, chapter_dir, ch02::chapter02_recipes);
    if (settings.seq.print_ranges) {
        std::cout << ranges_markdown(expected_ranges());
        return 0;
    }
    if (settings.score != "dot" && settings.score != "general" && settings.score != "additive")
        throw UsageError("--score must be dot, general or additive, got '" + settings.score + "'", cli.usage());
    if (!(settings.initial_width > 0 && settings.initial_width < 100))
        throw UsageError("--width must be above 0 and below 100", cli.usage());
    if (settings.no_translation)   // part 4's flags would be ignored: say so rather than pretend
        for (const char* flag : {"task", "data", "swap", "level", "save", "load", "translate", "embedding", "hidden", "lr",
                                 "lr-end", "batch", "steps", "score"})
            if (cli.given(flag))
                throw UsageError(std::string("--no-translation runs parts 1-3 only, which do not use --") + flag +
                                 " (the translation's flag): drop one of the two", cli.usage());
    const RunSettings& run = settings.seq.run;
    if (!cli.given("trials")) settings.trials = run.quick ? 300 : 2000;
    const std::filesystem::path out = run.out;
    const std::optional<ch01::Task> task =   // part 4's, loaded first: what cannot work is refused before any work
        settings.no_translation ? std::nullopt : std::optional<ch01::Task>(load_translation_task(settings.seq));
    if (task) check_translation_load(settings.seq, *task, settings.score);
    Summary summary(chapter_dir, run);
    const Stopwatch clock;
    // Parts 1-3 have ranges unless their own settings changed; part 4 unless the translation's did.
    const Ranges kernel_ranges = cli.given("width") || cli.given("trials")
                                     ? Ranges{} : rows_for(expected_ranges(), run.quick ? "kernel --quick" : "kernel");
    std::cout << "Chapter 03: queries, keys and values (" << code_name(run) << ", seed " << run.seed << ")\n";

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

    // Figures of parts 1-3 and their numbers.
    std::cout << "\n   Figures of parts 1-3 in " << out.string() << ":\n";
    summary.figure(plot::save_and_report(regression_fits(data, fits), out, "kernel_regression"));
    const plot::Heatmap kernel_map =
        kernel_weights(data, fits.back().second, "Attention weights of the learned kernel (queries x keys)");
    summary.figure(plot::save_and_report(kernel_map, out, "kernel_weights"));
    summary.attention(kernel_map, {"kernel regression", "learned kernel"});
    summary.figure(plot::save_and_report(width_training_curve(training.loss), out, "width_training"));
    summary.figure(plot::save_and_report(score_variance(rows), out, "scaling_variance"));
    summary.figure(plot::save_and_report(softmax_saturation(rows, n_keys), out, "scaling_softmax"));
    summary.figure(plot::save_and_report(gradient_through_softmax(rows), out, "scaling_gradient"));
    const ScalingRow& widest = rows.back();   // d = 1024
    summary.setting("trials", static_cast<double>(settings.trials));
    // Parts 1-3. A missing 1/sqrt(d) in 03.2 or a kernel with the wrong sign in 03.1 falls
    // outside these ranges (expected_ranges.hpp).
    add_metric(summary, kernel_ranges, "learned_width", "learned kernel width w", training.width);
    add_metric(summary, kernel_ranges, "learned_error_vs_truth", "learned kernel: mean squared error vs truth", learned_error);
    add_metric(summary, kernel_ranges, "average_error_vs_truth", "average pooling: mean squared error vs truth", average_error);
    add_metric(summary, kernel_ranges, "scaled_variance_1024", "Var(q.k / sqrt d) at d = 1024", widest.scaled_score_variance);
    add_metric(summary, kernel_ranges, "max_weight_1024", "largest weight at d = 1024, unscaled", widest.max_weight);
    add_metric(summary, kernel_ranges, "scaled_max_weight_1024", "largest weight at d = 1024, scaled", widest.scaled_max_weight);
    add_metric(summary, kernel_ranges, "gradient_ratio_1024", "|grad| scaled / unscaled at d = 1024",
               widest.scaled_gradient_norm / widest.gradient_norm);
    if (settings.no_translation)   // otherwise part 4 previews its alignment
        std::cout << "\n" << plot::preview(kernel_weights(data, fits.back().second, "Attention weights of the learned kernel"),
                                            ::isatty(STDOUT_FILENO) == 1, 80);

    // ---- 4. The layer at work in a decoder, against chapter 02's (translation.hpp).    (3.11)
    if (task) run_translation(settings.seq, *task, settings.score, summary, out);
    summary.finish(out, clock.seconds());   // prints where summary.json and report.html are
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return run_program("ch03", [&] { return run(argc, argv); });
}
