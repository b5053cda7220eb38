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
        {"test_bleu",             "translation",         0.849, 0.959, 0},       // seeds 42: 0.887, 1: 0.931, 2: 0.877
        {"test_token_accuracy",   "translation",         0.83,  0.941, 0.00323},  // seeds 42: 0.867, 1: 0.913, 2: 0.858
        {"test_exact_match",      "translation",         0.47,  0.786, 0},       // seeds 42: 0.559, 1: 0.707, 2: 0.549
        {"longest_bucket_bleu",   "translation",         0.82,  0.931, 0},       // seeds 42: 0.863, 1: 0.903, 2: 0.848
        {"longest_bucket_ratio",  "translation",         4.26,  6.82,  0},       // seeds 42: 5.342, 1: 5.750, 2: 5.326
        {"test_bleu",             "translation --quick", 0.218, 0.43,  0},       // seeds 42: 0.377, 1: 0.368, 2: 0.271
        {"test_token_accuracy",   "translation --quick", 0.203, 0.358, 0.00365},  // seeds 42: 0.311, 1: 0.319, 2: 0.242
        {"test_bleu",             "dates",               0.997, 1,     0.00802},  // seeds 42: 1.000, 1: 1.000, 2: 1.000
        {"test_token_accuracy",   "dates",               0.997, 1,     0.0882},  // seeds 42: 1.000, 1: 1.000, 2: 1.000
        {"test_exact_match",      "dates",               0.997, 1,     0},       // seeds 42: 1.000, 1: 0.999, 2: 1.000
        {"test_bleu",             "dates --quick",       0.935, 1,     0.00731},  // seeds 42: 0.979, 1: 0.981, 2: 0.951
        {"test_token_accuracy",   "dates --quick",       0.961, 1,     0.084},   // seeds 42: 0.988, 1: 0.987, 2: 0.970
        {"test_exact_match",      "dates --quick",       0.754, 1,     0},       // seeds 42: 0.935, 1: 0.920, 2: 0.815
    };
    return table;
}

}  // namespace attn::ch02
