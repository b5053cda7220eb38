// Part 9 of chapter 07: the ablations (see ablations.hpp).
#include "chapters/07_transformer/ablations.hpp"

#include "chapters/01_encoder_decoder/figures.hpp"
#include "chapters/07_transformer/figures.hpp"
#include "common/autodiff/ops.hpp"
#include "common/data/batching.hpp"
#include "common/data/vocab.hpp"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <limits>
#include <stdexcept>

namespace attn::ch07 {

std::vector<AblationRun> ablation_variants(const TranslationSizes& sizes, const ch01::TrainConfig& config) {
    std::vector<AblationRun> variants(3);
    variants[0].key = "pre_norm", variants[0].name = "pre-norm";
    variants[1].key = "no_warmup", variants[1].name = "no warm-up";
    variants[2].key = "batch_norm", variants[2].name = "batch norm";
    for (AblationRun& variant : variants) {
        variant.sizes = sizes;
        variant.config = config;
        variant.config.label = "   " + variant.name;
        variant.valid_loss_batch_statistics = std::numeric_limits<double>::quiet_NaN();
    }
    variants[0].sizes.transformer.norm = NormPlacement::pre;
    variants[1].config.warmup_ramp = false;
    variants[2].sizes.transformer.statistics = NormStatistics::batch;
    return variants;
}

namespace {

// The teacher-forced validation loss as training computes it: the model in training mode, so
// that batch norm uses each batch's statistics (the running averages move too: call it last).
double loss_with_batch_statistics(TransformerSeq2Seq<float>& model, const ch01::Task& task, std::size_t batch_size) {
    const NoGradGuard no_grad;
    model.train();
    const std::vector<data::Pair>& pairs = task.corpus.validation;
    double total = 0, tokens = 0;
    for (const std::vector<std::size_t>& indices : data::ordered_batches(pairs.size(), batch_size)) {
        const data::Batch batch = data::make_batch(pairs, indices, task.source_vocab, task.target_vocab);
        total += cross_entropy(model.forward(batch), batch.target_out, data::pad_id, 0.0, Reduction::sum).item();
        tokens += static_cast<double>(xt::sum(batch.target_lens)()) + static_cast<double>(indices.size());   // + <eos>
    }
    return total / std::max(tokens, 1.0);
}

// At the run's seed the variant starts from the baseline's weights (the same draws: neither
// the norms' placement nor their statistics change what is drawn) and sees the same batches.
void train_and_score(AblationRun& variant, const ch01::Task& task, std::uint64_t seed) {
    Rng rng(seed);
    TransformerSeq2Seq<float> model(variant.sizes, rng);
    const std::clock_t start = std::clock();
    try {
        variant.log = ch01::train(model, task, variant.config);
    } catch (const std::runtime_error& diverged) {   // a variant may diverge: that is a result, not a crash
        variant.failure = diverged.what();
        return;
    }
    variant.cpu_seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    variant.test = ch01::evaluate(model, task, task.corpus.test);
    if (variant.sizes.transformer.statistics == NormStatistics::batch)
        variant.valid_loss_batch_statistics = loss_with_batch_statistics(model, task, variant.config.batch_size);
}

const ch01::BucketScores& longest(const ch01::Evaluation& test) { return test.buckets.back(); }

void print_table(const std::vector<const AblationRun*>& runs) {
    std::printf("   %-22s %11s %6s %8s %7s %9s\n", "variant", "valid loss", "BLEU", ("BLEU " + longest(runs[0]->test).label).c_str(),
                "exact", "CPU time");
    for (const AblationRun* run : runs)
        if (!run->failure.empty()) std::printf("   %-22s %s\n", run->name.c_str(), run->failure.c_str());
        else std::printf("   %-22s %11.3f %6.3f %8.3f %6.1f%% %7.0f s\n", run->name.c_str(), run->log.valid_loss.back(),
                    run->test.overall.bleu, longest(run->test).scores.bleu, 100 * run->test.overall.exact_match, run->cpu_seconds);
}

// A run under the name a figure gives it ("post-norm (baseline)", "with warm-up (baseline)").
using Labelled = std::pair<std::string, const AblationRun*>;

// Validation loss (solid) and the smoothed training loss (dashed, same colour) of each run.
plot::LinePlot compared_losses(const std::vector<Labelled>& runs, const std::string& title) {
    plot::LinePlot figure;
    for (const auto& [name, run] : runs) {
        if (!run->failure.empty()) continue;   // no curves to draw
        const plot::LinePlot curves = ch01::loss_curves(run->log, title);   // [0] training (smoothed), [1] validation
        if (figure.series.empty()) figure = curves, figure.series.clear();
        plot::Series validation = curves.series[1], training = curves.series[0];
        validation.label = name + ": validation";
        validation.markers = true;
        training.label = name + ": training (mean of 20 steps)";
        training.dashed = true;
        figure.series.push_back(std::move(validation));
        figure.series.push_back(std::move(training));
    }
    return figure;
}

plot::LinePlot compared_schedules(const std::vector<Labelled>& runs, const std::string& title) {
    plot::LinePlot figure;
    for (const auto& [name, run] : runs) {
        plot::LinePlot one = learning_rate_schedule(run->config, title);
        if (figure.series.empty()) figure = one, figure.series.clear();
        one.series.front().label = name;
        figure.series.push_back(std::move(one.series.front()));
    }
    return figure;
}

}  // namespace

void run_ablations(const AblationRun& baseline, const ch01::Task& task, std::uint64_t seed, Summary& summary,
                   const std::filesystem::path& out) {
    std::vector<AblationRun> variants = ablation_variants(baseline.sizes, baseline.config);
    std::cout << "\n9. Ablations: three variants of the model above, each changing one choice, trained at the same seed, data,\n"
                 "   sizes and budget (" << baseline.config.steps << " steps):\n";
    for (AblationRun& variant : variants) train_and_score(variant, task, seed);
    const AblationRun &pre = variants[0], &no_warmup = variants[1], &batch = variants[2];
    print_table({&baseline, &pre, &no_warmup, &batch});
    if (batch.failure.empty())
        std::printf("   batch norm's validation loss with the batch's own statistics, as training sees them: %.3f\n"
                    "   (with the running averages that decoding uses: %.3f)\n",
                    batch.valid_loss_batch_statistics, batch.log.valid_loss.back());

    const std::string task_name = " (" + task.name + ", " + std::to_string(baseline.config.steps) + " steps)";
    const std::vector<Labelled> placement = {{"post-norm (baseline)", &baseline}, {"pre-norm", &pre}};
    summary.figure(plot::save_and_report(compared_losses(placement, "Post-norm against pre-norm" + task_name), out, "ablation_norm_placement"));
    const std::vector<Labelled> warmup = {{"warm-up (baseline)", &baseline}, {"no warm-up", &no_warmup}};
    summary.figure(plot::save_and_report(compared_losses(warmup, "With and without warm-up" + task_name), out, "ablation_warmup_loss"));
    summary.figure(plot::save_and_report(compared_schedules(warmup, "The learning rate with and without warm-up"), out, "ablation_warmup_schedule"));
    const std::vector<Labelled> statistics = {{"layer norm (baseline)", &baseline}, {"batch norm", &batch}};
    summary.figure(plot::save_and_report(compared_losses(statistics, "Layer norm against batch norm" + task_name), out, "ablation_layer_vs_batch_norm"));

    for (const AblationRun& variant : variants) {
        if (!variant.failure.empty()) continue;   // the table says why
        const std::string key = "ablation_" + variant.key + "_", name = variant.name + ": ";
        summary.metric(key + "valid_loss", name + "final validation loss", variant.log.valid_loss.back());
        summary.metric(key + "test_bleu", name + "test BLEU", variant.test.overall.bleu);
        summary.metric(key + "longest_bucket_bleu", name + "BLEU on the longest sources (" + longest(variant.test).label + ")",
                       longest(variant.test).scores.bleu);
        summary.metric(key + "test_exact_match", name + "exact match", variant.test.overall.exact_match);
        summary.setting(key + "train_cpu_seconds", variant.cpu_seconds);
    }
    if (batch.failure.empty())
        summary.metric("ablation_batch_norm_valid_loss_batch_statistics",
                       "batch norm: validation loss with the batch's statistics (training's view)", batch.valid_loss_batch_statistics);
}

void mention_ablations() {
    // No seconds here: the line stays the same from run to run (the lesson quotes it).
    std::cout << "\n9. Ablations (pre-norm, no warm-up, batch norm): add --ablations to train each at this run's settings,\n"
                 "   three more trainings as long as part 4's.\n";
}

}  // namespace attn::ch07
