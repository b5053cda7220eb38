// Chapter 07's training recipes: steps, Adam's peak learning rate, the warm-up and label
// smoothing, per task and mode (a TSV corpus uses the translation ones). The Transformer
// trains with the schedule of its paper -- a linear warm-up to the peak, then 1/sqrt(step) --
// and label smoothing 0.1. The measurements behind the numbers are below.
#pragma once
#include "chapters/01_encoder_decoder/app.hpp"

namespace attn::ch07 {

// Measured at the default sizes (d_model 64, 4 heads, feed-forward 256, 2 + 2 layers), seed 42:
// translation, 1200 steps at 4e-3: test BLEU 0.972, 0.957 on 31-40 words, in about 130 s of CPU
// time; dates, 1500 steps at 2e-3: 99.4 % exact (800 steps at 4e-3 only 92.9 %). --quick
// trains a smaller model (d_model 32, 2 heads, feed-forward 64, 1 + 1 layers) at a higher rate,
// which a model that small tolerates, to stay near ten seconds: translation BLEU 0.645 in 10 s
// of CPU time, dates 75.5 % exact in 5 s.
//                                          steps  lr    lr_end warmup smoothing
constexpr ch01::Recipes chapter07_recipes{{1200, 4e-3, 1, 200, 0.1},    // translation
                                          {300, 8e-3, 1, 50, 0.1},      // translation --quick
                                          {1500, 2e-3, 1, 200, 0.1},    // dates
                                          {500, 8e-3, 1, 50, 0.1}};     // dates --quick

// The smaller model of --quick.
struct QuickSizes {
    int d_model = 32, heads = 2, feed_forward = 64, layers = 1;
};

}  // namespace attn::ch07
