#include "chapters/07_transformer/normalisation_facts.hpp"

#include "chapters/07_transformer/transformer_layers.hpp"
#include "common/autodiff/var.hpp"

#include "common/xtensor_compat.hpp"

#include <cstdio>

namespace attn::ch07 {
namespace {

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

}  // namespace

// ---- 1. Statistics per position, not per batch.                                       (7.1)
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
    std::printf("\n1. A %zu-word sentence normalised alone, then in a batch beside a longer one (padded to its length).\n"
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

}  // namespace attn::ch07
