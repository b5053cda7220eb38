// Chapter 00, foundations: softmax and temperature, why we subtract the maximum, the
// backward pass as a vector-Jacobian product checked by a numerical gradient, and a softmax
// classifier trained by gradient descent with the gradient derived by hand (p - y).
#include "chapters/00_foundations/classifier.hpp"
#include "chapters/00_foundations/figures.hpp"
#include "chapters/00_foundations/numerical_gradient.hpp"
#include "chapters/00_foundations/softmax.hpp"
#include "chapters/00_foundations/softmax_backward.hpp"
#include "chapters/00_foundations/toy_data.hpp"
#include "common/cli.hpp"
#include "common/progress.hpp"
#include "common/random.hpp"
#include "common/summary.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <unistd.h>

using namespace attn;
using namespace attn::ch00;

namespace {

const std::string chapter_dir = "00_foundations";

struct Settings {
    RunSettings run;
    double learning_rate = 0.5;
    int points_per_class = 200;
};

// Part 1: softmax(z / tau) for one vector of scores at several temperatures.   (0.3)
Matrix<double> softmax_at_temperatures(const Matrix<double>& z, const std::vector<double>& temperatures) {
    Matrix<double> rows = xt::zeros<double>({temperatures.size(), z.shape(1)});   // (temperatures, tokens)
    for (std::size_t t = 0; t < temperatures.size(); ++t) {
        const Matrix<double> scaled = z / temperatures[t];
        xt::view(rows, t, xt::all()) = xt::view(softmax(scaled), 0, xt::all());
    }
    return rows;
}

int run(int argc, char** argv) {
    Settings settings;
    CommandLine cli(argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "ch00",
                    "softmax, its gradient, and a classifier trained with a gradient derived by hand");
    add_standard_flags(cli, settings.run, chapter_dir);
    cli.option("lr", &settings.learning_rate, "gradient-descent learning rate");
    cli.option("points", &settings.points_per_class, "training points per class", 10, 100000);
    if (!cli.parse(argc, argv)) return 0;
    finish_standard_flags(cli, settings.run, chapter_dir, /*default_steps=*/300, /*quick_steps=*/100);
    if (!(settings.learning_rate > 0)) throw UsageError("--lr must be positive", cli.usage());
    const std::filesystem::path out = settings.run.out;
    Summary summary("00_foundations", settings.run);
    const Stopwatch clock;

    std::cout << "Chapter 00: foundations (" << code_name(settings.run) << ", seed " << settings.run.seed << ")\n";

    // ---- 1. Softmax turns scores into probabilities; the temperature sets how sharp.   (0.1), (0.3)
    const std::vector<std::string> tokens = {"cat", "dog", "fox", "car", "sky"};
    const Matrix<double> z = {{2.0, 1.0, 0.5, -0.5, -1.5}};                  // (1, tokens)
    const std::vector<double> temperatures = {0.1, 0.25, 0.5, 1.0, 2.0, 5.0};
    const Matrix<double> P_tau = softmax_at_temperatures(z, temperatures);   // (temperatures, tokens)
    std::cout << "\n1. softmax(z / tau) for z = [2, 1, 0.5, -0.5, -1.5]:\n";
    for (std::size_t t = 0; t < temperatures.size(); ++t) {
        std::printf("   tau = %-5g", temperatures[t]);
        for (std::size_t c = 0; c < tokens.size(); ++c) std::printf("  %s %.3f", tokens[c].c_str(), P_tau(t, c));
        std::printf("\n");
    }
    std::vector<double> sweep;
    for (int k = 0; k <= 80; ++k) sweep.push_back(std::pow(10.0, -1.3 + 2.6 * k / 80.0));   // 0.05 .. 20
    const plot::Heatmap heatmap = temperature_heatmap(tokens, P_tau, temperatures);

    // ---- 2. Why subtract the maximum: exp(1000) overflows, exp(1000 - 1000) does not.   (0.2)
    const Matrix<double> huge = {{1000.0, 999.0, 998.0}};
    const double naive_first = std::exp(1000.0) / (std::exp(1000.0) + std::exp(999.0) + std::exp(998.0));
    const Matrix<double> stable = softmax(huge);
    std::printf("\n2. softmax([1000, 999, 998]): naive formula gives %g, the stable one [%.4f, %.4f, %.4f]\n",
                naive_first, stable(0, 0), stable(0, 1), stable(0, 2));
    summary.metric("stable_softmax_of_1000", "stable softmax([1000,999,998])[0]", stable(0, 0), 0.6652, 0.6653);

    // ---- 3. The backward pass (0.5), checked against central differences (0.6).
    Rng rng(settings.run.seed);
    const Matrix<double> X_check = rng.normal_matrix<double>(4, 6);
    const Matrix<double> dY_check = rng.normal_matrix<double>(4, 6);           // a random upstream gradient
    const ScalarFunction<double> contracted = [&](const Matrix<double>& X) {   // L(X) = sum softmax(X) * dY
        const double total = xt::sum(softmax(X) * dY_check)();
        return total;
    };
    const Matrix<double> dX_analytic = softmax_backward(softmax(X_check), dY_check);
    const Matrix<double> dX_numeric = numerical_gradient(contracted, X_check, 1e-5);
    const double backward_error = max_relative_error(dX_analytic, dX_numeric);
    std::printf("\n3. softmax_backward vs numerical gradient on a (4, 6) input: relative error %.2e\n", backward_error);
    summary.metric("softmax_backward_gradcheck", "softmax backward vs numerical (rel. err.)", backward_error, 0.0, 1e-7);

    // ---- 4. A softmax classifier: Z = X W + b (0.7), P = softmax(Z), L = cross-entropy (0.8).
    const LabelledPoints train = make_three_clouds(static_cast<std::size_t>(settings.points_per_class), rng);
    const LabelledPoints test = make_three_clouds(100, rng);
    const Matrix<double> Y_train = one_hot(train.labels, num_classes);
    const Matrix<double> Y_test = one_hot(test.labels, num_classes);
    LinearClassifier model = make_classifier(2, num_classes);
    std::printf("\n4. Training a softmax classifier on %zu points (3 classes), %d steps of gradient descent, lr %g\n",
                train.labels.size(), settings.run.steps, settings.learning_rate);

    // Before training, check the hand-derived gradient two independent ways.
    const Matrix<double> P0 = softmax(logits(model, train.X));
    const Gradients hand = hand_gradients(train.X, P0, Y_train);                  // dZ = (P - Y) / N   (0.9)
    const Matrix<double> dP0 = -Y_train / (P0 * static_cast<double>(train.labels.size()));   // dL/dP from (0.8)
    const double chain_error = max_relative_error(hand.dZ, softmax_backward(P0, dP0));   // (0.5) then (0.10)
    const ScalarFunction<double> loss_of_W = [&](const Matrix<double>& W) {
        return cross_entropy(softmax(logits({W, model.b}, train.X)), Y_train);
    };
    const double dW_error = max_relative_error(hand.dW, numerical_gradient(loss_of_W, model.W, 1e-5));
    std::printf("   p - y against the chain rule through softmax_backward: relative error %.2e\n", chain_error);
    std::printf("   dW = X^T (P - Y) / N against the numerical gradient:   relative error %.2e\n", dW_error);
    summary.metric("p_minus_y_vs_chain_rule", "p - y vs chain rule (rel. err.)", chain_error, 0.0, 1e-12);
    summary.metric("dW_gradcheck", "hand dW vs numerical (rel. err.)", dW_error, 0.0, 1e-7);

    std::vector<double> train_loss, test_loss;
    ProgressBar bar("   training", static_cast<std::size_t>(settings.run.steps));
    for (int step = 0; step < settings.run.steps; ++step) {
        const Matrix<double> P = softmax(logits(model, train.X));              // forward
        train_loss.push_back(cross_entropy(P, Y_train));
        test_loss.push_back(cross_entropy(softmax(logits(model, test.X)), Y_test));
        if (!std::isfinite(train_loss.back()))
            throw std::runtime_error("the training loss became " + std::to_string(train_loss.back()) +
                                     " at step " + std::to_string(step) + "; try a smaller --lr");
        const Gradients g = hand_gradients(train.X, P, Y_train);               // backward  (0.9)
        model.W -= settings.learning_rate * g.dW;                              // descend   (0.11)
        model.b -= settings.learning_rate * g.db;
        bar.update(static_cast<std::size_t>(step + 1), train_loss.back());
    }
    bar.finish();

    const double train_accuracy = accuracy(softmax(logits(model, train.X)), train.labels);
    const double test_accuracy = accuracy(softmax(logits(model, test.X)), test.labels);
    std::printf("   accuracy: train %.3f, test %.3f\n", train_accuracy, test_accuracy);

    // ---- 5. Figures and the summary.
    std::cout << "\n5. Figures in " << out.string() << ":\n";
    summary.figure(plot::save_and_report(heatmap, out, "softmax_temperature_heatmap"));
    summary.figure(plot::save_and_report(temperature_curves(tokens, sweep, softmax_at_temperatures(z, sweep)), out,
                                         "softmax_temperature_curves"));
    summary.figure(plot::save_and_report(decision_regions(model, test), out, "decision_regions"));
    summary.figure(plot::save_and_report(loss_curves(train_loss, test_loss), out, "loss_curves"));
    std::cout << "\n" << plot::preview(heatmap, ::isatty(STDOUT_FILENO) == 1);

    summary.setting("task", "three Gaussian clouds, linear softmax classifier");
    summary.setting("learning_rate", settings.learning_rate);
    summary.setting("train_points", static_cast<double>(train.labels.size()));
    summary.metric("initial_loss", "loss before training (ln 3)", train_loss.front(), 1.0985, 1.0987);
    summary.metric("final_train_loss", "final training loss", train_loss.back(), 0.13, 0.26);
    summary.metric("train_accuracy", "training accuracy", train_accuracy, 0.88, 0.97);
    summary.metric("test_accuracy", "test accuracy", test_accuracy, 0.85, 0.97);
    summary.finish(out, clock.seconds());   // prints where summary.json and report.html are
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return run_program("ch00", [&] { return run(argc, argv); });
}
