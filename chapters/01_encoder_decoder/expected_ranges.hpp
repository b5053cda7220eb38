// Chapter 01's expected results: where a correct implementation lands at the chapter's
// default settings (reference code; the numbers measured with seeds 42, 1 and 2 are in the
// comments, the ranges leave a little room for other seeds), and what the same model scores
// untrained (--steps 1): every range starts above it, so a model that learned nothing is
// never reported as correct. `ch01 --ranges` prints this table for the lesson.
//   The "translation --quick" rows come from 30 seeds (100-129, docs/ranges.md). 300 steps barely
//   start the translation: BLEU was 0.003 to 0.026 (16 of the 30 below the range seeds 42, 1 and 2
//   had suggested), so its range only says that a few n-grams match; the token accuracy (0.043 to
//   0.070 against 0.003 untrained) is the number that tells a model that learned.
#pragma once
#include "common/summary.hpp"

namespace attn::ch01 {

inline const RangeTable& expected_ranges() {
    static const RangeTable table = {
        // metric                 settings                lo      hi      untrained
        {"test_bleu",             "translation",         0.267, 0.336,  0},        // seeds 42: 0.302, 1: 0.297, 2: 0.307
        {"test_token_accuracy",   "translation",         0.286, 0.36,   0.00346},  // seeds 42: 0.322, 1: 0.317, 2: 0.328
        {"test_exact_match",      "translation",         0.172, 0.229,  0},        // seeds 42: 0.192, 1: 0.210, 2: 0.205
        {"longest_bucket_bleu",   "translation",         0.152, 0.189,  0},        // seeds 42: 0.172, 1: 0.169, 2: 0.172
        {"test_bleu",             "translation --quick", 0.001, 0.04,  0},       // seeds 42: 0.024, 1: 0.019, 2: 0.020
        {"test_token_accuracy",   "translation --quick", 0.03,  0.08,  0.00274},  // seeds 42: 0.066, 1: 0.054, 2: 0.060
        {"test_bleu",             "dates",               0.996, 1,     0},       // seeds 42: 0.999, 1: 0.998, 2: 0.999
        {"test_token_accuracy",   "dates",               0.997, 1,     0.0539},  // seeds 42: 0.999, 1: 0.999, 2: 1.000
        {"test_exact_match",      "dates",               0.991, 1,     0},       // seeds 42: 0.996, 1: 0.993, 2: 0.997
        // dates --quick: 30 seeds (100-129, docs/ranges.md), the wider of the rule and the old range
        {"test_bleu",             "dates --quick",       0.657, 0.81,  0},       // 30 runs, 0.707 to 0.780
        {"test_token_accuracy",   "dates --quick",       0.799, 0.88,  0.0525},  // 30 runs, 0.822 to 0.863
        {"test_exact_match",      "dates --quick",       0.04,  0.41,  0},       // 30 runs, 0.135 to 0.345
    };
    return table;
}

}  // namespace attn::ch01
