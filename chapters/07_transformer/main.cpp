// Chapter 07, the Transformer: embeddings and positions, a stack of encoder blocks
// (self-attention, feed-forward, residuals and layer norms), a stack of decoder blocks (causal
// self-attention, cross-attention, feed-forward) and an output layer. We train it to translate
// on the task of chapters 01 and 02, score it by source length, and draw where every head of
// every layer looked. First, part 1: why the Transformer normalises each position on its own
// (layer normalisation, (7.1)) rather than each feature over the batch (batch normalisation):
// a padded batch, normalised both ways. Part 8, the capstone: chapters 01, 02 and 07 side by
// side on the same data (capstone.hpp). Decoding faster, with a key/value cache, and beam
// search are chapter 08's (./course run 08).
#include "chapters/01_encoder_decoder/app.hpp"
#include "chapters/01_encoder_decoder/figures.hpp"
#include "chapters/01_encoder_decoder/run_summary.hpp"
#include "chapters/02_bahdanau_attention/alignment.hpp"
#include "chapters/07_transformer/ablations.hpp"
#include "chapters/07_transformer/attention_maps.hpp"
#include "chapters/07_transformer/capstone.hpp"
#include "chapters/07_transformer/expected_ranges.hpp"
#include "chapters/07_transformer/figures.hpp"
#include "chapters/07_transformer/normalisation_facts.hpp"
#include "chapters/07_transformer/recipes.hpp"
#include "chapters/07_transformer/transformer_flags.hpp"
#include "chapters/07_transformer/translation_model.hpp"
#include "chapters/07_transformer/translation_training.hpp"
#include "common/data/tokenize.hpp"
#include "common/progress.hpp"
#include "common/runtime.hpp"
#include "common/summary.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <unistd.h>
#include <vector>

using namespace attn;
using namespace attn::ch07;

namespace {

const std::string chapter_dir = "07_transformer";

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

int run(int argc, char** argv) {
    ch01::AppSettings settings;
    TransformerFlags flags;
    CommandLine cli(argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "ch07",
                    "the Transformer: encoder and decoder stacks of attention, trained to translate");
    refuse_moved_flags(argc, argv);   // --beam: beam search is chapter 08's now
    ch01::add_seq2seq_flags(cli, settings, chapter_dir, chapter07_recipes, ch01::SizeFlags::transformer);
    add_transformer_flags(cli, settings, flags);
    if (!cli.parse(argc, argv)) return 0;
    ch01::finish_seq2seq_flags(cli, settings, chapter_dir, chapter07_recipes);
    finish_transformer_flags(cli, settings, flags);
    if (settings.print_ranges) {
        std::cout << ranges_markdown(expected_ranges());
        return 0;
    }
    const Stopwatch clock;
    std::cout << "Chapter 07: the Transformer (" << code_name(settings.run) << ", seed " << settings.run.seed << ")\n";
    const std::filesystem::path out = settings.run.out;
    Summary summary(chapter_dir, settings.run);

    // The task and the model come first, unprinted, so that a checkpoint that does not match
    // them is refused before any work.
    const ch01::Task task = load_translation_task(settings);
    Rng rng(settings.run.seed);
    const TranslationSizes sizes = translation_sizes(settings, flags, task);
    require_transformer_training_memory(sizes, static_cast<std::size_t>(settings.batch), task);   // before a bad_alloc
    TransformerSeq2Seq<float> model(sizes, rng);
    if (!settings.load.empty()) ch01::load_model(model, task, settings, settings.load);
    const EarlierRuns earlier = find_earlier_runs(settings, task);   // part 8's, read now: a broken one stops us here

    {
        Rng rng(settings.run.seed);
        const NormalisationFacts facts = compare_normalisations(rng);
        summary.figure(plot::save_and_report(normalisation_plot(facts), out, "layer_vs_batch_statistics"));
        // Exact facts rather than measurements: they hold whatever the seed.
        summary.metric("layer_norm_change", "largest change of a layer-normalised row when the batch changes",
                       *std::max_element(facts.layer_change.begin(), facts.layer_change.end()), 0.0, 1e-12);
        // A floor: batch statistics must move the rows (their size depends on the random words).
        summary.metric("batch_statistics_change", "largest change of a row under batch statistics, batch of length 10",
                       facts.batch_change[7], 0.1, 1e3);
    }

    // ---- 2. The task of chapters 01 and 02.
    std::cout << "\n2. " << task.corpus.description << "\n   vocabularies: " << task.source_vocab.size() << " source and "
              << task.target_vocab.size() << " target tokens\n";

    // ---- 3. The model: embeddings x sqrt(d) + positions (6.3), the encoder blocks (7.2), the
    //         decoder blocks (7.4), each stack ending in a layer norm, and the output layer.
    std::cout << "\n3. Transformer, d_model " << sizes.transformer.d_model << ", " << sizes.transformer.heads << " heads, feed-forward "
              << sizes.transformer.feed_forward << ", " << sizes.transformer.encoder_layers << " + " << sizes.transformer.decoder_layers
              << " layers, " << flags.norm << "-norm: " << model.parameter_count() << " parameters\n";
    print_parameter_counts(model);

    ch01::TrainLog log;
    double train_cpu_seconds = 0;
    const ch01::TrainConfig config = ch01::train_config(settings, "   training");
    if (settings.load.empty()) {   // ---- 4. Teacher forcing over all target positions at once, under the causal mask.
        const Training training = train_translation(model, task, settings, config, "4.");
        log = training.log;
        train_cpu_seconds = training.cpu_seconds;
    }
    // Saved as soon as training ends: nothing after it (a long sentence, a full disk for the figures) can lose it.
    if (!settings.save.empty()) ch01::save_model(model, task, settings, settings.save);

    // ---- 5. Greedy decoding of the test set, scored by source length.
    std::cout << "\n5. Greedy decoding of " << task.corpus.test.size() << " test sentences, the decoder run over the whole\n"
                 "   prefix again at every step:\n";
    const Stopwatch decoding;
    const ch01::Evaluation test = ch01::evaluate(model, task, task.corpus.test);
    const double decoding_seconds = decoding.seconds();
    ch01::print_buckets(test);
    ch01::show_examples(task, task.corpus.test, test.hypotheses, 3);

    // ---- 6. Figures: the loss, the schedule, the scores, and where every head looked.
    std::cout << "\n6. Figures in " << out.string() << ":\n";
    if (!log.steps.empty()) {
        plot::LinePlot curves = ch01::loss_curves(log, "Chapter 07: the Transformer learning " + task.name);
        // Label smoothing adds to the training loss the cross-entropy against a uniform
        // guess, so it sits well above the validation loss, which has no smoothing.
        if (settings.label_smoothing > 0) curves.series.front().label = "training, label-smoothed (mean of 20 steps)";
        summary.figure(plot::save_and_report(curves, out, "loss_curves"));
        summary.figure(plot::save_and_report(learning_rate_schedule(config, "Chapter 07: the learning rate"), out, "learning_rate"));
    }
    plot::LinePlot scores = ch01::scores_by_length({{"07 Transformer", &test}}, "Chapter 07: scores by source length (test set)",
                                                   "source length (tokens)");
    scores.legend = "bottom left";   // every curve stays high, whatever the length
    summary.figure(plot::save_and_report(scores, out, "scores_by_length"));
    const std::vector<std::string> phrase = task.name == "translation" ? std::vector<std::string>{"zone", "économique", "européenne"}
                                                                      : std::vector<std::string>{};
    const data::Pair& pair = ch02::pick_example(task.corpus.test, phrase, 10);
    const AttentionMaps maps = attention_maps(model, task, pair, "Chapter 07");
    summary.figure(plot::save_and_report(maps.encoder_self, out, "attention_encoder_self"));
    summary.figure(plot::save_and_report(maps.decoder_self, out, "attention_decoder_self"));
    summary.figure(plot::save_and_report(maps.cross, out, "attention_cross"));
    // The same weights for the report's explorer: each grid has one row of heads per layer.
    const std::string reference = data::detokenize(pair.target, task.corpus.level);
    for (const auto& [grid, kind] : {std::pair{&maps.encoder_self, "encoder self"},
                                     std::pair{&maps.decoder_self, "decoder causal self"}, std::pair{&maps.cross, "cross"}}) {
        report::AttentionLabel label("the figure's sentence", kind, 1, 1, reference);
        label.heads_per_layer = grid->columns;
        summary.attention(*grid, label);
    }
    std::cout << "\n   attention_cross.png in text, the first layer's heads:\n"
              << plot::preview(maps.cross, ::isatty(STDOUT_FILENO) == 1);

    // ---- 7. Your own sentence (the model was saved when training ended).
    if (!settings.translate.empty()) {
        ch01::show_translation(model, task, settings.translate, "7.");
    } else {   // numbered all the same, so that the parts keep the lesson's numbers
        std::cout << "\n7. Your own sentence: add --translate \"...\" to translate it with this model (chapter 08's\n"
                     "   --translate adds beam search).\n";
    }

    std::map<std::string, std::string> decisive = ch01::decisive_settings(settings, task);
    decisive.erase("hidden");   // the GRU's size, which no Transformer has
    const ch01::RunRecord run_record{decisive, log.steps.empty() ? 0 : settings.run.steps, log.seconds, test, train_cpu_seconds};
    // ---- 8. The capstone: chapters 01, 02 and 07 on the same data.
    if (capstone_applies(settings))
        report_capstone(earlier, {"07 Transformer", model.parameter_count(), {run_record, "this run"}}, settings, task, summary);
    else
        std::cout << "\n8. The capstone compares the toy translation runs of chapters 01, 02 and 07: skipped for "
                  << (settings.data.empty() ? "--task " + settings.task : "--data") << "\n";
    // ---- 9. Ablations: the same training with one choice changed (ablations.hpp).
    if (flags.ablations) run_ablations({"baseline", "baseline", sizes, config, log, test, train_cpu_seconds, 0, ""}, task, settings.run.seed, summary, out);
    else mention_ablations();

    summary.setting("norm", flags.norm);
    summary.setting("heads", flags.heads);
    summary.setting("feed_forward", flags.feed_forward);
    summary.setting("layers", flags.layers);
    summary.setting("embedding_init", flags.embedding_init);
    summary.setting("steps_per_second", log.steps_per_second);
    summary.setting("test_decoding_seconds", decoding_seconds);
    if (!log.valid_loss.empty()) summary.setting("final_valid_loss", log.valid_loss.back());
    ch01::write_run(summary, run_record, ch01::ranges_for(expected_ranges(), settings, task));
    summary.finish(out, clock.seconds());   // prints where summary.json and report.html are
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return run_program("ch07", [&] { return run(argc, argv); });
}
