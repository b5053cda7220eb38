// Part 4 of chapter 03's run: the attention layer at work in a decoder. Trains the decoder
// that --score names (Luong dot or general, or chapter 02's additive one) on chapter 02's
// task and budget, compares it bucket by bucket with chapter 02's run, draws its loss, the
// comparison and an alignment, and records its numbers in the summary.
#pragma once
#include "chapters/01_encoder_decoder/app.hpp"

#include <filesystem>
#include <string>

namespace attn::ch03 {

void run_translation(const ch01::AppSettings& settings, const std::string& score, Summary& summary,
                     const std::filesystem::path& out);

}  // namespace attn::ch03
