// The sqrt(d) experiment (see scaling.hpp), on plain tensors with chapter 00's softmax and its
// backward pass.
#include "chapters/03_queries_keys_values/scaling.hpp"

#include "chapters/00_foundations/softmax.hpp"
#include "chapters/00_foundations/softmax_backward.hpp"

#include <xtensor-blas/xlinalg.hpp>
#include <xtensor/xmath.hpp>

#include <cmath>

namespace attn::ch03 {

namespace {

struct SoftmaxStats {
    double max_weight, entropy, gradient_norm;   // averaged over the rows
};

// scores (trials, n_keys): each row one query against its keys.
SoftmaxStats softmax_stats(const Matrix<double>& scores, const Matrix<double>& upstream) {
    const Matrix<double> weights = ch00::softmax(scores);
    // The gradient that reaches the scores: a saturated softmax (one weight near 1) passes
    // almost nothing back, whatever the upstream gradient.
    const Matrix<double> grad = ch00::softmax_backward(weights, upstream);
    const double rows = static_cast<double>(scores.shape(0));
    const Matrix<double> logs = xt::log(xt::maximum(weights, 1e-300));
    return {xt::sum(xt::amax(weights, {1}))() / rows,
            -xt::sum(weights * logs)() / rows,
            xt::sum(xt::sqrt(xt::sum(grad * grad, {1})))() / rows};
}

double spread(const Matrix<double>& values) {   // the variance (a name ADL cannot confuse with xt::variance)
    const double mean = xt::mean(values)();
    return xt::mean((values - mean) * (values - mean))();
}

}  // namespace

std::vector<ScalingRow> measure_scaling(const std::vector<int>& dims, int n_keys, int trials, Rng& rng) {
    std::vector<ScalingRow> rows;
    const std::size_t t = static_cast<std::size_t>(trials), n = static_cast<std::size_t>(n_keys);
    for (const int d : dims) {
        Matrix<double> scores = xt::zeros<double>({t, n});   // q . k_j for each trial's query
        for (std::size_t trial = 0; trial < t; ++trial) {
            const Matrix<double> q = rng.normal_matrix<double>(1, static_cast<std::size_t>(d));
            const Matrix<double> keys = rng.normal_matrix<double>(n, static_cast<std::size_t>(d));
            const Matrix<double> row = xt::linalg::dot(q, xt::transpose(keys));   // (1, n): q . k_j
            xt::view(scores, trial, xt::all()) = xt::view(row, 0, xt::all());
        }
        const Matrix<double> upstream = rng.normal_matrix<double>(t, n);
        const Matrix<double> scaled = scores / std::sqrt(static_cast<double>(d));
        const SoftmaxStats raw = softmax_stats(scores, upstream), fair = softmax_stats(scaled, upstream);
        rows.push_back({d, spread(scores), spread(scaled), raw.max_weight, fair.max_weight, raw.entropy,
                        fair.entropy, raw.gradient_norm, fair.gradient_norm});
    }
    return rows;
}

}  // namespace attn::ch03
