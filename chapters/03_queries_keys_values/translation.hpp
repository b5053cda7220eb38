// Part 4 of chapter 03's run: the attention layer at work in a decoder. Trains the decoder
// that --score names (Luong dot or general, or chapter 02's additive one) on chapter 02's
// task and budget, compares it bucket by bucket with chapter 02's run, draws its loss, the
// comparison and an alignment, and records its numbers in the summary.
#pragma once
#include "chapters/01_encoder_decoder/app.hpp"

#include <filesystem>
#include <string>

namespace attn::ch03 {

// The task of part 4, loaded before part 1 so that a corpus or settings that cannot work (a
// bad --data file, a model that cannot fit in memory) are refused before any work.
ch01::Task load_translation_task(const ch01::AppSettings& settings);

// Loads --load's checkpoint into a model of these settings and throws what does not fit (a
// checkpoint saved with another --score, say): called before parts 1-3, so that nothing is drawn
// for a run that cannot finish. Does nothing without --load.
void check_translation_load(const ch01::AppSettings& settings, const ch01::Task& task, const std::string& score);

void run_translation(const ch01::AppSettings& settings, const ch01::Task& task, const std::string& score, Summary& summary,
                     const std::filesystem::path& out);

}  // namespace attn::ch03
