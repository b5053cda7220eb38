// Chapter 04's expected results: where a correct implementation lands at the chapter's
// default settings (reference code; the numbers measured with seeds 42, 1 and 2 are in the
// comments, the ranges leave a little room for other seeds), and what an untrained model gets
// there. The --quick rows come from 30 seeds (100-129), as docs/ranges.md describes.
// `ch04 --ranges` prints this table for the lesson.
//   Part 3's fitted log-log slopes of time against n have no rows: they measure the machine as
//     much as the code (30 quick runs on a busy machine gave self-attention 1.14 to 2.38), so
//     the run shows them beside the theory's exponent and does not judge them.
//   "counting" rows: part 4 (untrained: --steps 1 of the same models, seed 42). Two rows are
//     upper bounds, the failures the chapter shows: the convolutions cannot count a token whose
//     repeats lie beyond their reach (conv_accuracy_far near 0, below a first-step model that
//     happens to guess one class), and the GRU's accuracy there is a fading middle ground (a
//     first-step model of seed 1 guessed 0.418 by predicting one class everywhere).
//   "image" rows: part 5 (untrained: --steps 1, seed 42). The convolutions' accuracy beyond
//     their reach is an upper bound, like counting's; their overall accuracy is barely above
//     a first-step model that calls every colour unique (0.401), because that is the rule they
//     mostly learn (at --quick, 0.39 to 0.46 over 30 seeds: that row cannot tell them apart). The small-data runs have no rows: on 32 images self-attention's result
//     depends on the seed (0.742, 0.754 and 0.402 within reach), and the convolutions, which
//     learn those images by heart, end below a model that predicts one class everywhere.
#pragma once
#include "common/summary.hpp"

namespace attn::ch04 {

inline const RangeTable& expected_ranges() {
    static const RangeTable table = {
        // metric                    settings             lo     hi     untrained
        {"attention_accuracy",       "counting",          0.95,  1,     0.2962},  // 0.983, 0.991, 0.994
        {"attention_accuracy_far",   "counting",          0.93,  1,     0.2145},  // 0.971, 0.985, 0.989
        {"gru_accuracy",             "counting",          0.49,  0.59,  0.1677},  // 0.548, 0.530, 0.540
        {"gru_accuracy_far",         "counting",          0.3,   0.72,  0.1147},  // 0.511, 0.440, 0.581
        {"conv_accuracy",            "counting",          0.4,   0.45,  0.3747},  // 0.421, 0.426, 0.420
        {"conv_accuracy_far",        "counting",          0,     0.1,   0.0057},  // 0.002, 0.003, 0.035 (an upper bound)
        {"attention_accuracy",       "counting --quick",  0.73,  1,     0.2962},  // 0.925, 0.903, 0.884
        {"attention_accuracy_far",   "counting --quick",  0.6,   1,     0.2145},  // 0.880, 0.837, 0.814
        {"gru_accuracy",             "counting --quick",  0.39,  0.45,  0.1677},  // 0.415, 0.422, 0.426
        {"gru_accuracy_far",         "counting --quick",  0.2,   0.4,   0.1147},  // 0.325, 0.269, 0.287
        {"conv_accuracy",            "counting --quick",  0.38,  0.43,  0.3747},  // 0.400, 0.402, 0.408
        {"conv_accuracy_far",        "counting --quick",  0,     0.4,   0.0057},  // 0.040, 0.024, 0.055 (an upper bound)
        {"image_attention_accuracy",     "image",         0.9,   1,     0.3167},  // 0.962, 0.969, 0.981; seeds 100-109: 0.923 to 0.983
        {"image_attention_accuracy_far", "image",         0.9,   1,     0.4693},  // 0.939, 0.953, 0.972
        {"image_attention_within",       "image",         0.83,  1,     0.6533},  // 0.958, 0.962, 0.975; seeds 100-109: 0.864 to 0.972
        {"image_conv_accuracy",          "image",         0.43,  0.51,  0.4007},  // 0.469, 0.481, 0.460
        {"image_conv_accuracy_far",      "image",         0,     0.3,   0},       // 0.178, 0.204, 0.214 (an upper bound)
        {"image_conv_within",            "image",         0.25,  0.75,  0},       // 0.353, 0.566, 0.567
        {"image_attention_accuracy",     "image --quick", 0.76,  1,     0.3162},  // 0.887, 0.839, 0.897
        {"image_attention_accuracy_far", "image --quick", 0.65,  1,     0.4824},  // 0.830, 0.844, 0.835
        {"image_conv_accuracy",          "image --quick", 0.36,  0.48,  0.4044},  // 0.432, 0.421, 0.426
        {"image_conv_accuracy_far",      "image --quick", 0,     0.7,   0},       // 0.288, 0.333, 0.577 (an upper bound; 300 steps do not settle it)
    };
    return table;
}

}  // namespace attn::ch04
