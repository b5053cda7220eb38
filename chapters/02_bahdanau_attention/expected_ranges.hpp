// Chapter 02's expected results: where a correct implementation lands at the chapter's
// default settings (reference code; the numbers measured with seeds 42, 1 and 2 are in the
// comments, the ranges leave a little room for other seeds), and what the same model scores
// untrained (--steps 1): every range starts above it, so a model that learned nothing is
// never reported as correct. `ch02 --ranges` prints this table for the lesson.
#pragma once
#include "common/summary.hpp"

namespace attn::ch02 {

inline const RangeTable& expected_ranges() {
    static const RangeTable table = {
        // metric                 settings                lo      hi      untrained
        {"test_bleu",             "translation",         0.964, 1,      0},        // seeds 42: 0.995, 1: 0.994, 2: 0.996
        {"test_token_accuracy",   "translation",         0.963, 1,      0.00323},  // seeds 42: 0.993, 1: 0.993, 2: 0.995
        {"test_exact_match",      "translation",         0.93,  1,      0},        // seeds 42: 0.966, 1: 0.959, 2: 0.976
        {"longest_bucket_bleu",   "translation",         0.963, 1,      0},        // seeds 42: 0.993, 1: 0.993, 2: 0.995
        {"longest_bucket_ratio",  "translation",         5.3,   6.4,    0},        // seeds 42: 5.763, 1: 5.881, 2: 5.797
        // --quick rows: 30 seeds (100-129, docs/ranges.md). At 300 steps 2 of the 30 were still
        // early in training (BLEU 0.032 and 0.067), so the rule's lower end would reach the
        // untrained 0; it stays above it instead.
        {"test_bleu",             "translation --quick", 0.02,  0.64,  0},        // 30 runs, 0.032 to 0.462
        {"test_token_accuracy",   "translation --quick", 0.05,  0.48,  0.00365},  // 30 runs, 0.090 to 0.389
        {"test_bleu",             "dates",               0.997, 1,     0.00802},  // seeds 42: 1.000, 1: 1.000, 2: 1.000
        {"test_token_accuracy",   "dates",               0.997, 1,     0.0882},  // seeds 42: 1.000, 1: 1.000, 2: 1.000
        {"test_exact_match",      "dates",               0.997, 1,     0},       // seeds 42: 1.000, 1: 0.999, 2: 1.000
        // dates --quick: 30 seeds (100-129, docs/ranges.md), the wider of the rule and the old range
        {"test_bleu",             "dates --quick",       0.93,  1,     0.00731},  // 30 runs, 0.949 to 0.988
        {"test_token_accuracy",   "dates --quick",       0.95,  1,     0.084},   // 30 runs, 0.960 to 0.994
        {"test_exact_match",      "dates --quick",       0.74,  1,     0},       // 30 runs, 0.795 to 0.955
    };
    return table;
}

}  // namespace attn::ch02
