// How much memory training needs, estimated before anything is allocated, so that settings
// that cannot fit (--batch 8192 --hidden 2048, a corpus of gigabytes) are refused with the
// estimate instead of ending in std::bad_alloc. The constants were measured with peak
// resident sizes (/usr/bin/time -f %M) and land within about 15 % of them; docs/design.md,
// "Saved models and outputs", lists the measurements.
#pragma once
#include "chapters/01_encoder_decoder/app.hpp"
#include "chapters/01_encoder_decoder/seq2seq.hpp"
#include "chapters/01_encoder_decoder/task.hpp"

#include <cstdint>
#include <filesystem>
#include <utility>

namespace attn::ch01 {

// The program, its tables and the data of the generated tasks.
constexpr std::uint64_t program_bytes = 48ull << 20;
// Reading a corpus keeps every token as a string: a 28 MB file peaked at 520 MB.
constexpr std::uint64_t corpus_bytes_per_file_byte = 20;

// The longest source and target sentences of the training split, in tokens.
std::pair<std::size_t, std::size_t> longest_training_pair(const Task& task);

// Bytes for parameters: the weights, their gradients and Adam's two moments, 4 floats each.
std::uint64_t parameter_bytes(std::uint64_t parameters);

// Bytes of the output scores of one batch: logits, their softmax and its gradient.
std::uint64_t output_score_bytes(std::size_t batch, std::size_t target_len, std::size_t target_vocab);

// Training a GRU encoder-decoder (chapters 01-03): the tape keeps about 30 floats per hidden
// unit, time step and sentence (measured: 663 MB for chapter 02's dates at batch 1024).
std::uint64_t gru_training_bytes(const ModelSizes& sizes, std::size_t batch, const Task& task);

// Throws InputError with the estimate when training a GRU encoder-decoder with these
// settings on this task cannot fit in the memory this machine has free.
void require_gru_training_memory(const AppSettings& settings, const Task& task);

// Refuses a corpus file that reading alone would not fit.
void require_corpus_memory(const std::filesystem::path& corpus);

}  // namespace attn::ch01
