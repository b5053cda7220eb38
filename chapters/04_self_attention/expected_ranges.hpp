// Chapter 04's expected results: where a correct implementation lands at the chapter's
// default settings (reference code; the numbers measured with seeds 42, 1 and 2 are in the
// comments, the ranges leave a little room for other seeds and for a busy machine), and what
// an untrained model gets there. `ch04 --ranges` prints this table for the lesson.
//   "cost" rows: part 3, the fitted log-log slopes of time against n. They measure the machine
//     as much as the code (timings vary by some 15 % from run to run), so the ranges are
//     wide; there is no training, and the untrained column holds the slope of a cost that
//     does not grow with n.
//   "counting" rows: part 4 (untrained: --steps 1 of the same models, seed 42). Two rows are
//     upper bounds, the failures the chapter shows: the convolutions cannot count a token whose
//     repeats lie beyond their reach (conv_accuracy_far near 0, below a first-step model that
//     happens to guess one class), and the GRU's accuracy there is a fading middle ground (a
//     first-step model of seed 1 guessed 0.418 by predicting one class everywhere).
#pragma once
#include "common/summary.hpp"

namespace attn::ch04 {

inline const RangeTable& expected_ranges() {
    static const RangeTable table = {
        // metric                    settings             lo     hi     untrained
        {"slope_self_attention",     "cost",              1.8,   2.2,   0},       // 2.013, 2.009, 2.032
        {"slope_gru",                "cost",              0.95,  1.6,   0},       // 1.305, 1.186, 1.171
        {"slope_convolution",        "cost",              0.75,  1.15,  0},       // 0.953, 0.986, 0.954
        {"slope_self_attention",     "cost --quick",      1.7,   2.15,  0},       // 1.935, 1.927, 1.995
        {"slope_gru",                "cost --quick",      1.05,  1.8,   0},       // 1.361, 1.475, 1.353
        {"slope_convolution",        "cost --quick",      0.7,   1.1,   0},       // 0.899, 0.898, 0.899
        {"attention_accuracy",       "counting",          0.95,  1,     0.2962},  // 0.983, 0.991, 0.994
        {"attention_accuracy_far",   "counting",          0.93,  1,     0.2145},  // 0.971, 0.985, 0.989
        {"gru_accuracy",             "counting",          0.49,  0.59,  0.1677},  // 0.548, 0.530, 0.540
        {"gru_accuracy_far",         "counting",          0.3,   0.72,  0.1147},  // 0.511, 0.440, 0.581
        {"conv_accuracy",            "counting",          0.4,   0.45,  0.3747},  // 0.421, 0.426, 0.420
        {"conv_accuracy_far",        "counting",          0,     0.1,   0.0057},  // 0.002, 0.003, 0.035 (an upper bound)
        {"attention_accuracy",       "counting --quick",  0.83,  0.97,  0.2962},  // 0.925, 0.903, 0.884
        {"attention_accuracy_far",   "counting --quick",  0.74,  0.95,  0.2145},  // 0.880, 0.837, 0.814
        {"gru_accuracy",             "counting --quick",  0.39,  0.45,  0.1677},  // 0.415, 0.422, 0.426
        {"gru_accuracy_far",         "counting --quick",  0.2,   0.4,   0.1147},  // 0.325, 0.269, 0.287
        {"conv_accuracy",            "counting --quick",  0.38,  0.43,  0.3747},  // 0.400, 0.402, 0.408
        {"conv_accuracy_far",        "counting --quick",  0,     0.12,  0.0057},  // 0.040, 0.024, 0.055 (an upper bound)
    };
    return table;
}

}  // namespace attn::ch04
