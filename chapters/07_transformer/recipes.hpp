// Chapter 07's training recipes: steps, Adam's peak learning rate, the warm-up and label
// smoothing, per task and mode (a TSV corpus uses the translation ones). The Transformer
// trains with the schedule of its paper -- a linear warm-up to the peak, then 1/sqrt(step) --
// and label smoothing 0.1. The measurements behind the numbers are in the lesson.
#pragma once
#include "chapters/01_encoder_decoder/app.hpp"

namespace attn::ch07 {

//                                           steps  lr     lr_end (unused) warmup  smoothing
constexpr ch01::Recipes chapter07_recipes{{1200, 4e-3, 1, 200, 0.1},
                                          {150, 4e-3, 1, 40, 0.1},
                                          {1000, 2e-3, 1, 200, 0.1},
                                          {150, 4e-3, 1, 40, 0.1}};

}  // namespace attn::ch07
