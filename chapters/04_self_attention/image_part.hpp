// Part 5 of chapter 04: an image as a set of patches. The image task (image_task.hpp), its
// two taggers trained alike and scored by distance, the figures, and the summary metrics.
#pragma once
#include "common/cli.hpp"
#include "common/summary.hpp"

#include <filesystem>

namespace attn::ch04 {

// Training steps of the patch taggers by default; --steps replaces them.
int image_steps(bool quick);

// Runs part 5 with `steps` training steps, printing as it goes; metrics go to `summary`,
// with their ranges from `ranges`, figures to `out`.
void compare_on_images(const RunSettings& run, int steps, const Ranges& ranges, Summary& summary,
                       const std::filesystem::path& out);

}  // namespace attn::ch04
