// Chapter 07, the Transformer: embeddings and positions, a stack of encoder blocks
// (self-attention, feed-forward, residuals and layer norms), a stack of decoder blocks (causal
// self-attention, cross-attention, feed-forward) and an output layer. We train it to translate
// on the task of chapters 01 and 02, score it by source length, and draw where every head of
// every layer looked. First, part 1: why the Transformer normalises each position on its own
// (layer normalisation, (7.1)) rather than each feature over the batch (batch normalisation):
// a padded batch, normalised both ways. Part 2: decoding through a key/value cache (7.5)
// against recomputing the prefix at every step.
#include "chapters/01_encoder_decoder/app.hpp"
#include "chapters/01_encoder_decoder/figures.hpp"
#include "chapters/01_encoder_decoder/run_summary.hpp"
#include "chapters/02_bahdanau_attention/alignment.hpp"
#include "chapters/07_transformer/attention_maps.hpp"
#include "chapters/07_transformer/decoding_speed.hpp"
#include "chapters/07_transformer/expected_ranges.hpp"
#include "chapters/07_transformer/figures.hpp"
#include "chapters/07_transformer/recipes.hpp"
#include "chapters/07_transformer/translation_model.hpp"
#include "common/data/tokenize.hpp"
#include "common/progress.hpp"
#include "common/runtime.hpp"
#include "common/summary.hpp"

#include <xtensor/xview.hpp>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <unistd.h>
#include <vector>

using namespace attn;
using namespace attn::ch07;

namespace {

const std::string chapter_dir = "07_transformer";

// The Transformer's own flags, beside the seq2seq ones (--embedding is d_model here).
struct TransformerFlags {
    std::string norm = "post", embedding_init = "scaled";
    int heads = 4, feed_forward = 256, layers = 2;
};

void add_transformer_flags(CommandLine& cli, ch01::AppSettings& settings, TransformerFlags& flags) {
    cli.option("norm", &flags.norm, "where the layer norms sit: post (the paper, PyTorch's default) or pre", "post|pre");
    cli.option("heads", &flags.heads, "attention heads per layer (d_model must be a multiple)", 1, 64);
    cli.option("feed-forward", &flags.feed_forward, "the feed-forward layers' hidden size", 1, 8192);
    cli.option("layers", &flags.layers, "encoder blocks, and as many decoder blocks", 1, 12);
    cli.option("warmup", &settings.warmup, "learning-rate warm-up steps, then 1/sqrt(step); 0: the cosine of chapters 01-02 (default: the recipe's)", 0, 1000000);
    cli.option("label-smoothing", &settings.label_smoothing, "share of the target probability spread over the vocabulary in the training loss (default: the recipe's)");
    cli.option("embedding-init", &flags.embedding_init, "embedding tables start N(0, 1/d) (scaled) or N(0, 1) (standard, PyTorch's)", "scaled|standard");
}

TranslationSizes translation_sizes(const ch01::AppSettings& settings, const TransformerFlags& flags, const ch01::Task& task) {
    TranslationSizes sizes;
    sizes.source_vocab = task.source_vocab.size();
    sizes.target_vocab = task.target_vocab.size();
    sizes.transformer.d_model = static_cast<std::size_t>(settings.embedding);
    sizes.transformer.heads = static_cast<std::size_t>(flags.heads);
    sizes.transformer.feed_forward = static_cast<std::size_t>(flags.feed_forward);
    sizes.transformer.encoder_layers = sizes.transformer.decoder_layers = static_cast<std::size_t>(flags.layers);
    sizes.transformer.norm = flags.norm == "pre" ? NormPlacement::pre : NormPlacement::post;
    sizes.embedding_init = flags.embedding_init == "standard" ? EmbeddingInit::standard : EmbeddingInit::scaled;
    return sizes;
}

// "encoder 66,560" ...: the parameters under each top-level part of the model.
void print_parameter_counts(const TransformerSeq2Seq<float>& model) {
    const std::vector<std::pair<std::string, std::string>> parts = {
        {"source_embedding.", "source embedding"}, {"target_embedding.", "target embedding"},
        {"transformer.encoder.", "encoder blocks and final norm"}, {"transformer.decoder.", "decoder blocks and final norm"},
        {"output.", "output layer"}};
    for (const auto& [prefix, label] : parts) {
        std::size_t count = 0;
        for (const auto& [name, parameter] : model.named_parameters())
            if (name.compare(0, prefix.size(), prefix) == 0) count += parameter.value().size();
        std::printf("    %-32s %9zu\n", label.c_str(), count);
    }
}

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

// ---- 2. Decoding with a key/value cache: the same outputs, no prefix recomputed.      (7.5)
void compare_decoding_speed(const RunSettings& run) {
    const TransformerSizes sizes{};   // the lesson's: d 64, 4 heads, feed-forward 256, 2 + 2 layers
    const std::size_t batch = run.quick ? 8 : 64, source_length = run.quick ? 10 : 30, steps = run.quick ? 10 : 40;
    const DecodingSpeed speed = measure_decoding_speed(sizes, batch, source_length, steps, run.seed);
    std::printf("\n2. Decoding %zu positions of %zu sentences (source length %zu; d %zu, %zu heads, feed-forward %zu,\n"
                "   %zu + %zu layers, float), best of 3:\n"
                "     with the key/value cache        %8.1f ms\n"
                "     recomputing the prefix          %8.1f ms  (%.1fx the time)\n"
                "     largest difference of outputs  %9.2g\n",
                steps, batch, source_length, sizes.d_model, sizes.heads, sizes.feed_forward, sizes.encoder_layers,
                sizes.decoder_layers, 1e3 * speed.cached_seconds, 1e3 * speed.recomputed_seconds,
                speed.recomputed_seconds / speed.cached_seconds, speed.largest_difference);
}

int run(int argc, char** argv) {
    ch01::AppSettings settings;
    TransformerFlags flags;
    CommandLine cli(argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "ch07",
                    "the Transformer: encoder and decoder stacks of attention, trained to translate");
    ch01::add_seq2seq_flags(cli, settings, chapter_dir, chapter07_recipes);
    add_transformer_flags(cli, settings, flags);
    if (!cli.parse(argc, argv)) return 0;
    if (cli.given("hidden")) throw UsageError("--hidden is the GRU's size in chapters 01-02; here use --embedding (d_model) and --feed-forward", cli.usage());
    if (flags.norm != "post" && flags.norm != "pre") throw UsageError("--norm must be post or pre, got '" + flags.norm + "'", cli.usage());
    if (flags.embedding_init != "scaled" && flags.embedding_init != "standard")
        throw UsageError("--embedding-init must be scaled or standard, got '" + flags.embedding_init + "'", cli.usage());
    ch01::finish_seq2seq_flags(cli, settings, chapter_dir, chapter07_recipes);
    if (!cli.given("embedding")) settings.embedding = settings.run.quick ? QuickSizes{}.d_model : 64;   // for both tasks
    if (settings.run.quick) {   // a smaller model, except for what the command line sets
        if (!cli.given("heads")) flags.heads = QuickSizes{}.heads;
        if (!cli.given("feed-forward")) flags.feed_forward = QuickSizes{}.feed_forward;
        if (!cli.given("layers")) flags.layers = QuickSizes{}.layers;
    }
    if (settings.embedding % 2 != 0 || settings.embedding % flags.heads != 0)
        throw UsageError("--embedding (d_model) must be even and a multiple of --heads", cli.usage());
    settings.measured_defaults = settings.measured_defaults && flags.norm == "post" && flags.embedding_init == "scaled";
    for (const char* flag : {"heads", "feed-forward", "layers"})
        settings.measured_defaults = settings.measured_defaults && !cli.given(flag);
    if (settings.print_ranges) {
        std::cout << ranges_markdown(expected_ranges());
        return 0;
    }
    const Stopwatch clock;
    std::cout << "Chapter 07: the Transformer (" << code_name(settings.run) << ", seed " << settings.run.seed << ")\n";
    const std::filesystem::path out = settings.run.out;
    Summary summary(chapter_dir, settings.run);
    {
        Rng rng(settings.run.seed);
        const NormalisationFacts facts = compare_normalisations(rng);
        plot::save_and_report(normalisation_plot(facts), out, "layer_vs_batch_statistics");
        // Exact facts rather than measurements: they hold whatever the seed.
        summary.metric("layer_norm_change", "largest change of a layer-normalised row when the batch changes",
                       *std::max_element(facts.layer_change.begin(), facts.layer_change.end()), 0.0, 1e-12);
        // A floor: batch statistics must move the rows (their size depends on the random words).
        summary.metric("batch_statistics_change", "largest change of a row under batch statistics, batch of length 10",
                       facts.batch_change[7], 0.1, 1e3);
    }
    compare_decoding_speed(settings.run);

    // ---- 3. The task of chapters 01 and 02.
    const ch01::Task task = ch01::load_task(settings.task, settings.data, settings.run.seed, settings.run.quick, settings.swap,
                                            settings.level == "char" ? data::TokenLevel::character : data::TokenLevel::word);
    std::cout << "\n3. " << task.corpus.description << "\n   vocabularies: " << task.source_vocab.size() << " source and "
              << task.target_vocab.size() << " target tokens\n";

    // ---- 4. The model: embeddings x sqrt(d) + positions (6.3), the encoder blocks (7.2), the
    //         decoder blocks (7.4), each stack ending in a layer norm, and the output layer.
    Rng rng(settings.run.seed);
    const TranslationSizes sizes = translation_sizes(settings, flags, task);
    TransformerSeq2Seq<float> model(sizes, rng);
    std::cout << "\n4. Transformer, d_model " << sizes.transformer.d_model << ", " << sizes.transformer.heads << " heads, feed-forward "
              << sizes.transformer.feed_forward << ", " << sizes.transformer.encoder_layers << " + " << sizes.transformer.decoder_layers
              << " layers, " << flags.norm << "-norm: " << model.parameter_count() << " parameters\n";
    print_parameter_counts(model);

    ch01::TrainLog log;
    double train_cpu_seconds = 0;
    const ch01::TrainConfig config = ch01::train_config(settings, "   training");
    if (!settings.load.empty()) {
        ch01::load_model(model, task, settings, settings.load);
    } else {
        // ---- 5. Teacher forcing over all target positions at once, under the causal mask.
        std::cout << "\n5. Training for " << settings.run.steps << " steps (batch " << settings.batch << ", Adam, peak lr "
                  << settings.lr << ch01::learning_rate_decay(settings) << ", label smoothing " << settings.label_smoothing
                  << "; the validation loss is the plain cross-entropy)\n";
        const std::vector<data::Pair> peek(task.corpus.validation.begin(),
                                           task.corpus.validation.begin() + std::min<std::ptrdiff_t>(2, task.corpus.validation.size()));
        const std::clock_t cpu_start = std::clock();   // the machine may be shared: CPU time says what a quiet one would take
        log = ch01::train(model, task, config, [&](int step, double valid_loss) {
            std::cout << "   step " << step << ": validation loss " << valid_loss << "\n";
            if (!settings.run.quick)   // decoding an untrained model runs to the longest output: seconds --quick lacks
                ch01::show_examples(task, peek, ch01::translate(model, task, peek), peek.size());
        });
        train_cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
        std::printf("   %.1f steps per second (%.0f s); %.0f s of CPU time, validations included\n", log.steps_per_second,
                    log.seconds, train_cpu_seconds);
    }

    // ---- 6. Greedy decoding of the test set, scored by source length.
    std::cout << "\n6. Greedy decoding of " << task.corpus.test.size() << " test sentences:\n";
    const Stopwatch decoding;
    const ch01::Evaluation test = ch01::evaluate(model, task, task.corpus.test);
    const double decoding_seconds = decoding.seconds();
    ch01::print_buckets(test);
    ch01::show_examples(task, task.corpus.test, test.hypotheses, 3);

    // ---- 7. Figures: the loss, the schedule, the scores, and where every head looked.
    std::cout << "\n7. Figures in " << out.string() << ":\n";
    if (!log.steps.empty()) {
        plot::LinePlot curves = ch01::loss_curves(log, "Chapter 07: the Transformer learning " + task.name);
        // Label smoothing adds to the training loss the cross-entropy against a uniform
        // guess, so it sits well above the validation loss, which has no smoothing.
        if (settings.label_smoothing > 0) curves.series.front().label = "training, label-smoothed (mean of 20 steps)";
        plot::save_and_report(curves, out, "loss_curves");
        plot::save_and_report(learning_rate_schedule(config, "Chapter 07: the learning rate"), out, "learning_rate");
    }
    plot::save_and_report(ch01::scores_by_length({{"07 Transformer", &test}}, "Chapter 07: scores by source length (test set)",
                                                 "source length (tokens)"),
                          out, "scores_by_length");
    const std::vector<std::string> phrase = task.name == "translation" ? std::vector<std::string>{"zone", "économique", "européenne"}
                                                                      : std::vector<std::string>{};
    const AttentionMaps maps = attention_maps(model, task, ch02::pick_example(task.corpus.test, phrase, 10), "Chapter 07");
    plot::save_and_report(maps.encoder_self, out, "attention_encoder_self");
    plot::save_and_report(maps.decoder_self, out, "attention_decoder_self");
    plot::save_and_report(maps.cross, out, "attention_cross");
    std::cout << "\n" << plot::preview(maps.cross, ::isatty(STDOUT_FILENO) == 1);

    // ---- 8. Your own sentence, and saving.
    if (!settings.translate.empty()) {
        std::cout << "\n8. " << settings.translate << "\n   => "
                  << data::detokenize(ch01::translate_sentence(model, task, settings.translate), task.corpus.level) << "\n";
    }
    if (!settings.save.empty()) ch01::save_model(model, task, settings, settings.save);

    summary.setting("norm", flags.norm);
    summary.setting("heads", flags.heads);
    summary.setting("feed_forward", flags.feed_forward);
    summary.setting("layers", flags.layers);
    summary.setting("embedding_init", flags.embedding_init);
    summary.setting("steps_per_second", log.steps_per_second);
    summary.setting("train_cpu_seconds", train_cpu_seconds);
    summary.setting("test_decoding_seconds", decoding_seconds);
    if (!log.valid_loss.empty()) summary.setting("final_valid_loss", log.valid_loss.back());
    ch01::write_run(summary, {ch01::decisive_settings(settings, task), log.steps.empty() ? 0 : settings.run.steps, log.seconds, test},
                    ch01::ranges_for(expected_ranges(), settings, task));
    const std::filesystem::path written = summary.finish(out, clock.seconds());
    std::cout << "  wrote " << written.string() << "\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return run_program("ch07", [&] { return run(argc, argv); });
}
