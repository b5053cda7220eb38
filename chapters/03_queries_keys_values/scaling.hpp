// Why scaled dot-product attention divides by sqrt(d), measured: for random queries and keys
// with unit-variance entries, how the scores, the softmax and its gradient behave as the
// dimension d grows, with and without the 1/sqrt(d).
#pragma once
#include "common/random.hpp"

#include <vector>

namespace attn::ch03 {

// Averages over `trials` random queries, each scored against n_keys random keys.
struct ScalingRow {
    int d = 0;
    double score_variance = 0, scaled_score_variance = 0;   // Var(q . k) and Var(q . k / sqrt(d))
    double max_weight = 0, scaled_max_weight = 0;           // the largest softmax weight (1/n_keys ... 1)
    double entropy = 0, scaled_entropy = 0;                 // of the weights, in nats (0 ... ln n_keys)
    double gradient_norm = 0, scaled_gradient_norm = 0;     // |d loss / d scores| for a random upstream gradient
};

std::vector<ScalingRow> measure_scaling(const std::vector<int>& dims, int n_keys, int trials, Rng& rng);

}  // namespace attn::ch03
