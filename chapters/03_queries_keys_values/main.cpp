// Chapter 03, queries, keys and values: attention pulled out of the translation decoder into
// a layer of its own. Kernel regression as the simplest attention (a query scores every key,
// the scores become weights, the values are averaged with them), a kernel width learned by
// leave-one-out, and a measurement of why scaled dot-product attention divides by sqrt(d).
#include "chapters/03_queries_keys_values/figures.hpp"
#include "chapters/03_queries_keys_values/kernel_regression.hpp"
#include "chapters/03_queries_keys_values/scaling.hpp"
#include "common/cli.hpp"
#include "common/progress.hpp"
#include "common/random.hpp"
#include "common/summary.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <unistd.h>

using namespace attn;
using namespace attn::ch03;

namespace {

const std::string chapter_dir = "03_queries_keys_values";

struct Settings {
    RunSettings run;
    double lr = 0.2;             // Adam, for the kernel width
    double initial_width = 1.0;
    int trials = 0;              // random queries per dimension in the sqrt(d) experiment
};

int run(int argc, char** argv) {
    Settings settings;
    CommandLine cli(argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "ch03",
                    "kernel regression as attention, a learned kernel width, and why attention divides by sqrt(d)");
    add_standard_flags(cli, settings.run, chapter_dir);
    cli.option("lr", &settings.lr, "Adam learning rate for the kernel width");
    cli.option("width", &settings.initial_width, "the kernel width w that training starts from");
    cli.option("trials", &settings.trials, "random queries per dimension in the sqrt(d) experiment (default 2000, quick 300)", 10);
    if (!cli.parse(argc, argv)) return 0;
    finish_standard_flags(cli, settings.run, chapter_dir, /*default_steps=*/300, /*quick_steps=*/100);
    if (!(settings.lr > 0 && settings.lr < 10)) throw UsageError("--lr must be between 0 and 10", cli.usage());
    if (!(settings.initial_width > 0 && settings.initial_width < 100))
        throw UsageError("--width must be between 0 and 100", cli.usage());
    if (!cli.given("trials")) settings.trials = settings.run.quick ? 300 : 2000;
    const std::filesystem::path out = settings.run.out;
    Summary summary(chapter_dir, settings.run);
    const Stopwatch clock;
    const bool measured = !cli.given("lr") && !cli.given("width") && !cli.given("steps") && !cli.given("trials");
    const auto metric = [&](const std::string& key, const std::string& label, double value, double lo, double hi) {
        if (measured) summary.metric(key, label, value, lo, hi);
        else summary.metric(key, label, value);
    };
    std::cout << "Chapter 03: queries, keys and values (" << settings.run.variant << " code, seed " << settings.run.seed << ")\n";

    // ---- 1. Kernel regression: each test input x is a query, the training inputs x_i are the
    //         keys, their targets y_i the values; f(x) = sum_i alpha(x, x_i) y_i.   (3.1)-(3.3)
    Rng rng(settings.run.seed);
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
    std::printf("\n2. Learning w by Adam (lr %g) on the leave-one-out error, from w = %g, %d steps\n", settings.lr,
                settings.initial_width, settings.run.steps);
    const WidthTraining training = learn_width(data, settings.initial_width, settings.run.steps, settings.lr);
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

    // ---- 4. Figures and the summary.
    std::cout << "\n4. Figures in " << out.string() << ":\n";
    plot::save_and_report(regression_fits(data, fits), out, "kernel_regression");
    const plot::Heatmap weights = kernel_weights(data, fits.back().second, "Attention weights of the learned kernel (queries x keys)");
    plot::save_and_report(weights, out, "kernel_weights");
    plot::save_and_report(width_training_curve(training.loss), out, "width_training");
    plot::save_and_report(score_variance(rows), out, "scaling_variance");
    plot::save_and_report(softmax_saturation(rows, n_keys), out, "scaling_softmax");
    plot::save_and_report(gradient_through_softmax(rows), out, "scaling_gradient");

    const ScalingRow& widest = rows.back();   // d = 1024
    summary.setting("task", "kernel regression and the sqrt(d) experiment");
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
    std::cout << "\n" << plot::preview(weights, ::isatty(STDOUT_FILENO) == 1, 80);
    const std::filesystem::path written = summary.finish(out, clock.seconds());
    std::cout << "  wrote " << written.string() << "\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return run_program("ch03", [&] { return run(argc, argv); });
}
