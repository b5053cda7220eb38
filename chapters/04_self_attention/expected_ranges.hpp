// Chapter 04's expected results: where a correct implementation lands at the chapter's
// default settings (reference code; the numbers measured with seeds 42, 1 and 2 are in the
// comments) and what an untrained model gets there. `ch04 --ranges` prints this table.
//   "cost" rows: part 3, the fitted log-log slopes of time against n (untrained: the slope
//     a layer whose cost did not grow with n would have).
//   "counting" rows: part 4 (untrained: --steps 0).
#pragma once
#include "common/summary.hpp"

namespace attn::ch04 {

inline const RangeTable& expected_ranges() {
    static const RangeTable table = {
        // metric                    settings          lo     hi     untrained
        {"slope_self_attention",     "cost",           1.5,   2.3,   0},
        {"slope_gru",                "cost",           0.8,   1.2,   0},
        {"slope_convolution",        "cost",           0.7,   1.2,   0},
    };
    return table;
}

}  // namespace attn::ch04
