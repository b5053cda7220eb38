// Chapter 08's expected results that depend on training: part 7's beam search on chapter 07's
// translation model, at chapter 07's default settings and at its --quick ones, with beam 4 on
// the first 500 test sentences (100 with --quick). The default rows were measured with --load
// on the default checkpoints of seeds 42, 1 and 2 and of a sweep of seeds 100-105, by
// chapter 07's program before its decoding moved here (the same model, the same search: the
// numbers carry over); the quick rows come from 30 seeds (100-129), as docs/ranges.md
// describes. Each range starts above what the untrained model scores (the last column).
// `ch08 --ranges` prints this table for the lesson. (The exact facts of parts 1-3, 5 and 6
// carry their own ranges in main.cpp: they hold whatever the settings.)
#pragma once
#include "common/summary.hpp"

namespace attn::ch08 {

inline const RangeTable& expected_ranges() {
    static const RangeTable table = {
        // metric                   settings               lo      hi      untrained
        {"beam_bleu",               "translation",         0.76,   1,      0},        // seeds 42: 0.936, 1: 0.960, 2: 0.951; 100-105: 0.842 to 0.962
        {"beam_exact_match",        "translation",         0.44,   1,      0},        // seeds 42: 0.768, 1: 0.812, 2: 0.778; 100-105: 0.552 to 0.830
        {"beam_bleu",               "translation --quick", 0.1,    0.73,   0},        // 30 runs, 0.182 to 0.554
        {"beam_exact_match",        "translation --quick", 0.02,   0.34,   0},        // 30 runs, 0.070 to 0.260 (the rule's
        //                                                                                  lower end, 0, stays above the untrained 0)
    };
    return table;
}

}  // namespace attn::ch08
