// Chapter 07, the Transformer. Part 1: why the Transformer normalises each position on its own
// (layer normalisation, (7.1)) rather than each feature over the batch (batch normalisation):
// a padded batch, normalised both ways.
#include "chapters/07_transformer/transformer_layers.hpp"
#include "common/cli.hpp"
#include "common/plot.hpp"
#include "common/progress.hpp"
#include "common/random.hpp"
#include "common/runtime.hpp"
#include "common/summary.hpp"

#include <xtensor/xview.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <vector>

using namespace attn;
using namespace attn::ch07;

namespace {

const std::string chapter_dir = "07_transformer";

// Batch normalisation's statistics: per feature, over every row of every sequence (padding
// included, as a batch-statistics layer sees it).                     x: (batch, n, d)
Array<double> batch_normalised(const Array<double>& x, double eps = 1e-5) {
    const Array<double> mu = xt::mean(x, {0, 1}, xt::keep_dims);   // materialised before broadcasting
    const Array<double> centred = x - mu;
    const Array<double> variance = xt::mean(centred * centred, {0, 1}, xt::keep_dims);
    return centred / xt::sqrt(variance + eps);
}

// The first `length` rows of sequence b.
Array<double> rows_of(const Array<double>& x, std::size_t b, std::size_t length) {
    return xt::view(x, b, xt::range(0, length), xt::all());
}

double largest_difference(const Array<double>& a, const Array<double>& b) { return xt::amax(xt::abs(a - b))(); }

// ---- 1. Statistics per position, not per batch.                                       (7.1)
struct NormalisationFacts {
    std::vector<double> lengths, layer_change, batch_change;   // per padded length
    double mean_error = 0, variance = 0;                         // of the layer-normalised rows
};

// A short sentence normalised alone, then in a batch beside a long one of length L (so padded
// to L): how far its normalised rows move, for each L.
NormalisationFacts compare_normalisations(Rng& rng) {
    const std::size_t d = 8, short_length = 3, longest = 40;
    const LayerNorm<double> norm({d});
    const auto layer_normalised = [&](const Array<double>& x) { return norm(constant<double>(x)).value(); };
    Array<double> short_words = rng.normal_matrix<double>(short_length, d);
    short_words.reshape({1, short_length, d});
    // The other sentence has another scale and offset, as a sentence of other words may.
    const Array<double> long_words = rng.normal_matrix<double>(longest, d, 3.0) + 2.0;
    NormalisationFacts facts;
    for (std::size_t length = short_length; length <= longest; ++length) {
        Array<double> batch = xt::zeros<double>({std::size_t{2}, length, d});
        xt::view(batch, 0) = xt::view(long_words, xt::range(0, length), xt::all());
        xt::view(batch, 1, xt::range(0, short_length), xt::all()) = xt::view(short_words, 0);
        facts.lengths.push_back(static_cast<double>(length));
        facts.layer_change.push_back(largest_difference(rows_of(layer_normalised(short_words), 0, short_length),
                                                        rows_of(layer_normalised(batch), 1, short_length)));
        facts.batch_change.push_back(largest_difference(rows_of(batch_normalised(short_words), 0, short_length),
                                                        rows_of(batch_normalised(batch), 1, short_length)));
        if (length == longest) {
            const Array<double> rows = rows_of(layer_normalised(batch), 1, short_length);
            facts.mean_error = xt::amax(xt::abs(xt::mean(rows, {1})))();
            facts.variance = xt::mean(xt::mean(rows * rows, {1}))();
        }
    }
    std::printf("1. A %zu-word sentence normalised alone, then in a batch beside a longer one (padded to its length).\n"
                "   Largest change of its normalised rows:                  padded to %2.0f   to %2.0f   to %2.0f\n"
                "     layer normalisation (statistics per position)          %7.3g  %7.3g  %7.3g\n"
                "     batch statistics (per feature, over every row)         %7.3g  %7.3g  %7.3g\n",
                short_length, facts.lengths[2], facts.lengths[7], facts.lengths.back(), facts.layer_change[2],
                facts.layer_change[7], facts.layer_change.back(), facts.batch_change[2], facts.batch_change[7],
                facts.batch_change.back());
    std::printf("   After layer normalisation each of its rows has mean 0 (|mean| < 1e-12: %s) and variance %.6f,\n"
                "   var / (var + eps) with eps 1e-5 inside the square root.\n",
                facts.mean_error < 1e-12 ? "yes" : "no", facts.variance);
    return facts;
}

plot::LinePlot normalisation_plot(const NormalisationFacts& facts) {
    plot::LinePlot figure;
    figure.title = "A 3-word sentence batched beside a longer one: how far its normalised rows move";
    figure.xlabel = "length of the batch (the sentence padded to it)";
    figure.ylabel = "largest change of a normalised value";
    figure.series = {{"batch statistics", facts.lengths, facts.batch_change},
                     {"layer normalisation", facts.lengths, facts.layer_change}};
    figure.legend = "center right";
    return figure;
}

int run(int argc, char** argv) {
    RunSettings run;
    CommandLine cli(argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "ch07",
                    "the Transformer: layer normalisation against batch statistics on a padded batch");
    add_standard_flags(cli, run, chapter_dir);
    if (!cli.parse(argc, argv)) return 0;
    finish_standard_flags(cli, run, chapter_dir, 0, 0);   // nothing is trained yet
    std::cout << "Chapter 07: the Transformer (" << code_name(run) << ", seed " << run.seed << ")\n";
    const std::filesystem::path out = run.out;
    Summary summary(chapter_dir, run);
    const Stopwatch clock;
    Rng rng(run.seed);
    const NormalisationFacts facts = compare_normalisations(rng);
    plot::save_and_report(normalisation_plot(facts), out, "layer_vs_batch_statistics");
    // Exact facts rather than measurements: they hold whatever the seed.
    summary.metric("layer_norm_change", "largest change of a layer-normalised row when the batch changes",
                   *std::max_element(facts.layer_change.begin(), facts.layer_change.end()), 0.0, 1e-12);
    // A floor: batch statistics must move the rows (their size depends on the random words).
    summary.metric("batch_statistics_change", "largest change of a row under batch statistics, batch of length 10",
                   facts.batch_change[7], 0.1, 1e3);
    const std::filesystem::path written = summary.finish(out, clock.seconds());
    std::cout << "  wrote " << written.string() << "\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return run_program("ch07", [&] { return run(argc, argv); });
}
