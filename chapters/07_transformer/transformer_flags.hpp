// Chapter 07's own flags, beside the seq2seq ones of chapters 01-02 (--embedding is d_model
// here): the norm placement, heads, feed-forward size, layers, the warm-up and label smoothing,
// and how the embedding tables start. Checked once, before any work.
#pragma once
#include "chapters/01_encoder_decoder/app.hpp"
#include "chapters/07_transformer/translation_model.hpp"
#include "common/cli.hpp"

#include <cstdint>
#include <string>

namespace attn::ch07 {

struct TransformerFlags {
    std::string norm = "post", embedding_init = "scaled";
    int heads = 4, feed_forward = 256, layers = 2;
    bool ablations = false;   // part 9: three more trainings
};

void add_transformer_flags(CommandLine& cli, ch01::AppSettings& settings, TransformerFlags& flags);

// Before parsing: a flag that moved to chapter 08 with what it sets (--beam, with beam search)
// is refused in one line that names the command to use instead (UsageError).
void refuse_moved_flags(int argc, const char* const* argv);

// After cli.parse and ch01::finish_seq2seq_flags: refuses what chapter 07 cannot run (--hidden,
// an unknown --norm, a d_model that the heads do not divide), gives --quick its smaller model
// wherever the command line did not set a size, and clears settings.measured_defaults when a
// Transformer setting differs from the one the expected ranges were measured with.
void finish_transformer_flags(const CommandLine& cli, ch01::AppSettings& settings, TransformerFlags& flags);

TranslationSizes translation_sizes(const ch01::AppSettings& settings, const TransformerFlags& flags, const ch01::Task& task);

// What training this Transformer on this task needs (chapter 01's memory_estimate.hpp): the
// parameters with their gradients and Adam's moments, and on the tape per layer and token
// about 12 d_model + 3 feed_forward + 4 heads n floats (within 10 % of peaks measured from 95 MB to 1 GB).
std::uint64_t transformer_training_bytes(const TranslationSizes& sizes, std::size_t batch, const ch01::Task& task);

// Throws InputError with that estimate when it exceeds the memory this machine has free.
void require_transformer_training_memory(const TranslationSizes& sizes, std::size_t batch, const ch01::Task& task);

}  // namespace attn::ch07
