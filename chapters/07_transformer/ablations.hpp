// Part 9 of chapter 07: ablations. The run's model -- post-norm, layer norm, warm-up -- is
// the baseline; three variants train at its seed, data, sizes and budget, each differing in
// one choice:
//   pre-norm       the norms before each sub-layer, x + f(norm(x)), instead of norm(x + f(x));
//   no warm-up     the learning rate starts at its peak instead of rising to it over the
//                  warm-up steps; after them the 1/sqrt(step) decay is the same;
//   batch norm     every layer norm replaced by batch normalisation (batch_norm.hpp), with
//                  statistics over the training batch's sequences and positions (padding
//                  included, as torch.nn.BatchNorm1d counts it) and running averages at
//                  evaluation.
// Each is scored as the baseline is (validation loss, greedy decoding of the test set).
#pragma once
#include "chapters/01_encoder_decoder/app.hpp"
#include "chapters/01_encoder_decoder/evaluation.hpp"
#include "chapters/01_encoder_decoder/training.hpp"
#include "chapters/07_transformer/translation_model.hpp"
#include "common/summary.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace attn::ch07 {

struct AblationRun {
    std::string key, name;        // "pre_norm" (summary keys), "pre-norm" (tables and legends)
    TranslationSizes sizes;
    ch01::TrainConfig config;
    ch01::TrainLog log;
    ch01::Evaluation test;
    double cpu_seconds = 0;       // training, validations included
    // Batch norm only: the teacher-forced validation loss with the batch's own statistics (as
    // in training, where the decoder's statistics include the future positions that decoding
    // never sees), beside log.valid_loss's running averages. NaN for the others.
    double valid_loss_batch_statistics = 0;
    std::string failure;          // why training stopped (a loss that stopped being finite), or empty
};

// The variants' settings, derived from the baseline's.
std::vector<AblationRun> ablation_variants(const TranslationSizes& sizes, const ch01::TrainConfig& config);

// Trains and scores the variants, prints the table of all four runs, draws the figures into
// `out` and records each variant's numbers in the summary.
void run_ablations(const AblationRun& baseline, const ch01::Task& task, std::uint64_t seed, Summary& summary,
                   const std::filesystem::path& out);

// Without --ablations: the one line that says how to run them and what they cost.
void mention_ablations();

}  // namespace attn::ch07
