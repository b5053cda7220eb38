// Chapter 03's expected results: where a correct implementation lands at the chapter's
// default settings (reference code; the numbers measured with seeds 42, 1 and 2 are in the
// comments, the ranges leave a little room for other seeds), and what an untrained or
// broken model gets there. `ch03 --ranges` prints this table for the lesson.
//   "kernel" rows: parts 1-3 (kernel regression and the sqrt(d) experiment); untrained
//     means the starting width w = 1, and for the sqrt(d) rows the unscaled scores that a
//     missing 1/sqrt(d) gives.
//   "translation" rows: part 4, the Luong dot decoder on chapter 02's task and budget.
#pragma once
#include "common/summary.hpp"

namespace attn::ch03 {

inline const RangeTable& expected_ranges() {
    static const RangeTable table = {
        // metric                    settings          lo     hi     untrained
        {"learned_width",            "kernel",         2.0,   10.0,  1.0},     // 6.881, 5.275, 3.035
        {"learned_error_vs_truth",   "kernel",         0.0,   0.25,  0.4863},  // 0.131, 0.089, 0.036 (w = 1: 0.486)
        {"average_error_vs_truth",   "kernel",         0.7,   1.1,   0.8736},  // 0.874, 0.905, 0.934
        {"scaled_variance_1024",     "kernel",         0.9,   1.1,   1021.1},  // 0.997, 1.003, 1.009
        {"max_weight_1024",          "kernel",         0.9,   1.0,   0.957},   // 0.957, 0.958, 0.950
        {"scaled_max_weight_1024",   "kernel",         0.13,  0.2,   0.957},   // 0.163, 0.164, 0.161
        {"gradient_ratio_1024",      "kernel",         3.0,   7.0,   1.0},     // 4.59, 5.13, 4.36
        // --quick rows: 30 seeds (100-129, docs/ranges.md); the wider of that rule and the
        // earlier range from seeds 42, 1 and 2
        {"learned_width",            "kernel --quick", 1.23,  10.0,  1.0},     // 30 runs, 2.658 to 6.184
        {"learned_error_vs_truth",   "kernel --quick", 0.0,   0.25,  0.4863},  // 30 runs, 0.025 to 0.156
        {"average_error_vs_truth",   "kernel --quick", 0.7,   1.1,   0.8736},  // 30 runs, 0.874 to 0.967
        {"scaled_variance_1024",     "kernel --quick", 0.85,  1.15,  1021.1},  // 30 runs, 0.968 to 1.032
        {"max_weight_1024",          "kernel --quick", 0.9,   1.0,   0.957},   // 30 runs, 0.938 to 0.967
        {"scaled_max_weight_1024",   "kernel --quick", 0.13,  0.2,   0.957},   // 30 runs, 0.156 to 0.170
        {"gradient_ratio_1024",      "kernel --quick", 2.13,  7.81,  1.0},     // 30 runs, 3.273 to 6.762
        // Part 4, the Luong dot decoder on chapter 02's recipe (untrained: --steps 1 of the same model)
        {"test_bleu",                "translation",         0.935, 1,     0},         // 0.966, 0.964, 0.977
        {"test_token_accuracy",      "translation",         0.921, 0.981, 0.0018},    // 0.952, 0.950, 0.953
        {"test_exact_match",         "translation",         0.81,  0.922, 0},         // 0.878, 0.873, 0.896; seeds 100-109:
        //                                                                                0.833 to 0.880 (seed 102 below the
        //                                                                                0.847 of the three: the rule over all 13)
        {"longest_bucket_bleu",      "translation",         0.919, 0.989, 0},         // 0.954, 0.947, 0.961
        {"longest_bucket_ratio",     "translation",         0.9,   1.02,  0},         // 0.960, 0.954, 0.966 (against chapter 02)
        {"test_bleu",                "translation --quick", 0.25,  0.86,  0},       // 30 runs, 0.296 to 0.676
        {"test_token_accuracy",      "translation --quick", 0.17,  0.68,  0.0018},  // 30 runs, 0.219 to 0.536
        {"test_exact_match",         "translation --quick", 0.03,  0.38,  0},       // 30 runs, 0.080 to 0.280
        {"longest_bucket_bleu",      "translation --quick", 0.1,   0.76,  0},       // 30 runs, 0.161 to 0.553
    };
    return table;
}

}  // namespace attn::ch03
