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
        {"test_bleu",             "translation",         0.924, 0.939, 0},       // seeds 1: 0.931
        {"test_token_accuracy",   "translation",         0.904, 0.922, 0.00323},  // seeds 1: 0.913
        {"test_exact_match",      "translation",         0.677, 0.736, 0},       // seeds 1: 0.707
        {"longest_bucket_bleu",   "translation",         0.893, 0.913, 0},       // seeds 1: 0.903
        {"longest_bucket_ratio",  "translation",         4.6,   6.9,   0},       // seeds 1: 5.750
        {"test_bleu",             "translation --quick", 0.218, 0.43,  0},       // seeds 42: 0.377, 1: 0.368, 2: 0.271
        {"test_token_accuracy",   "translation --quick", 0.203, 0.358, 0.00365},  // seeds 42: 0.311, 1: 0.319, 2: 0.242
        {"test_bleu",             "dates",               0.95,  1,     0.00802},  // provisional
        {"test_token_accuracy",   "dates",               0.95,  1,     0.0882},  // provisional
        {"test_exact_match",      "dates",               0.8,   1,     0},       // provisional
        {"test_bleu",             "dates --quick",       0.935, 1,     0.00731},  // seeds 42: 0.979, 1: 0.981, 2: 0.951
        {"test_token_accuracy",   "dates --quick",       0.961, 1,     0.084},   // seeds 42: 0.988, 1: 0.987, 2: 0.970
        {"test_exact_match",      "dates --quick",       0.754, 1,     0},       // seeds 42: 0.935, 1: 0.920, 2: 0.815
    };
    return table;
}

}  // namespace attn::ch02
