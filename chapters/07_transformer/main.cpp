// Chapter 07, the Transformer. Part 1: why the Transformer normalises each position on its own
// (layer normalisation, (7.1)) rather than each feature over the batch (batch normalisation):
// a padded batch, normalised both ways. Part 2: decoding through a key/value cache (7.5)
// against recomputing the prefix at every step.
#include "chapters/07_transformer/decoding_speed.hpp"
#include "chapters/07_transformer/transformer_layers.hpp"
#include "common/cli.hpp"
#include "common/random.hpp"
#include "common/runtime.hpp"

#include <xtensor/xview.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>

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
void compare_normalisations(Rng& rng) {
    const std::size_t d = 8, long_length = 10, short_length = 3;
    const LayerNorm<double> norm({d});
    // A short sentence, alone (no padding), and in a batch with a long one (padded to 10).
    Array<double> short_words = rng.normal_matrix<double>(short_length, d);
    short_words.reshape({1, short_length, d});
    Array<double> batch = xt::zeros<double>({std::size_t{2}, long_length, d});
    xt::view(batch, 0) = rng.normal_matrix<double>(long_length, d, 3.0) + 2.0;   // another scale and offset
    xt::view(batch, 1, xt::range(0, short_length), xt::all()) = xt::view(short_words, 0);

    const auto layer_normalised = [&](const Array<double>& x) { return norm(constant<double>(x)).value(); };
    const double layer_change = largest_difference(rows_of(layer_normalised(short_words), 0, short_length),
                                                   rows_of(layer_normalised(batch), 1, short_length));
    const double batch_change = largest_difference(rows_of(batch_normalised(short_words), 0, short_length),
                                                   rows_of(batch_normalised(batch), 1, short_length));
    std::printf("1. A %zu-word sentence normalised alone, then in a batch beside a %zu-word one (padded to %zu):\n"
                "   largest change of its normalised rows\n"
                "     layer normalisation (statistics per position)           %.3g\n"
                "     batch statistics (per feature, over batch and positions) %.3g\n",
                short_length, long_length, long_length, layer_change, batch_change);
    const Array<double> rows = rows_of(layer_normalised(batch), 1, short_length);
    std::printf("   after layer normalisation each of its rows has mean %.2g and variance %.6f (eps 1e-5 inside the root)\n",
                xt::amax(xt::abs(xt::mean(rows, {1})))(), xt::mean(xt::mean(rows * rows, {1}))());
}

// ---- 2. Decoding with a key/value cache: the same outputs, no prefix recomputed.      (7.5)
void compare_decoding_speed(const RunSettings& run) {
    const TransformerSizes sizes{};   // the lesson's: d 64, 4 heads, feed-forward 256, 2 + 2 layers
    const std::size_t batch = run.quick ? 8 : 64, source_length = run.quick ? 10 : 30, steps = run.quick ? 10 : 40;
    const DecodingSpeed speed = measure_decoding_speed(sizes, batch, source_length, steps, run.seed);
    std::printf("2. Decoding %zu positions of %zu sentences (source length %zu; d %zu, %zu heads, feed-forward %zu,\n"
                "   %zu + %zu layers, float), best of 3:\n"
                "     with the key/value cache        %8.1f ms\n"
                "     recomputing the prefix          %8.1f ms  (%.1fx the time)\n"
                "     largest difference of outputs  %9.2g\n",
                steps, batch, source_length, sizes.d_model, sizes.heads, sizes.feed_forward, sizes.encoder_layers,
                sizes.decoder_layers, 1e3 * speed.cached_seconds, 1e3 * speed.recomputed_seconds,
                speed.recomputed_seconds / speed.cached_seconds, speed.largest_difference);
}

int run(int argc, char** argv) {
    RunSettings run;
    CommandLine cli(argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "ch07",
                    "the Transformer: layer normalisation against batch statistics on a padded batch");
    add_standard_flags(cli, run, chapter_dir);
    if (!cli.parse(argc, argv)) return 0;
    finish_standard_flags(cli, run, chapter_dir, 0, 0);
    std::cout << "Chapter 07: the Transformer (" << code_name(run) << ", seed " << run.seed << ")\n";
    Rng rng(run.seed);
    compare_normalisations(rng);
    compare_decoding_speed(run);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return run_program("ch07", [&] { return run(argc, argv); });
}
