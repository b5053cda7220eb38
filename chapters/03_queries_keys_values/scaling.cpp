// The sqrt(d) experiment (see scaling.hpp). The weights come from exercise 03.2's scaled
// dot-product attention (an unscaled score is the scaled score of the query times sqrt(d));
// the gradient that reaches the scores from chapter 00's softmax backward pass.
#include "chapters/03_queries_keys_values/scaling.hpp"

#include "chapters/00_foundations/softmax_backward.hpp"
#include "chapters/03_queries_keys_values/scaled_dot_product_attention.hpp"
#include "common/autodiff/ops.hpp"

#include "common/xtensor_compat.hpp"

#include <algorithm>
#include <cmath>

namespace attn::ch03 {

namespace {

constexpr std::size_t chunk = 100;   // queries scored together: keeps the keys' memory small at d = 1024

struct Totals {
    double max_weight = 0, entropy = 0, gradient_norm = 0;
    void add(const Matrix<double>& weights, const Matrix<double>& upstream) {   // (rows, n_keys) each
        // A saturated softmax (one weight near 1) passes almost nothing back, whatever the upstream.
        const Matrix<double> grad = ch00::softmax_backward(weights, upstream);
        const Matrix<double> logs = xt::log(xt::maximum(weights, 1e-300));
        max_weight += xt::sum(xt::amax(weights, {1}))();
        entropy += -xt::sum(weights * logs)();
        gradient_norm += xt::sum(xt::sqrt(xt::sum(grad * grad, {1})))();
    }
};

Array<double> normal_array(const Shape& shape, Rng& rng) {
    Array<double> a = Array<double>::from_shape(shape);
    for (double& v : a) v = rng.normal();
    return a;
}

Matrix<double> rows_of(const Var<double>& weights) {   // (c, 1, n) -> (c, n)
    const Array<double>& w = weights.value();
    return xt::reshape_view(w, {w.shape(0), w.shape(2)});
}

}  // namespace

std::vector<ScalingRow> measure_scaling(const std::vector<int>& dims, int n_keys, int trials, Rng& rng) {
    const NoGradGuard no_grad;
    std::vector<ScalingRow> rows;
    const std::size_t n = static_cast<std::size_t>(n_keys);
    for (const int d : dims) {
        const std::size_t dim = static_cast<std::size_t>(d);
        Totals raw, fair;
        double sum = 0, sum_sq = 0;
        for (std::size_t done = 0; done < static_cast<std::size_t>(trials); done += chunk) {
            const std::size_t c = std::min(chunk, static_cast<std::size_t>(trials) - done);
            const Var<double> q = constant<double>(normal_array({c, 1, dim}, rng));
            const Var<double> keys = constant<double>(normal_array({c, n, dim}, rng));
            const Var<double> values = constant<double>(Array<double>(xt::zeros<double>({c, n, std::size_t{1}})));
            const Array<double> scores = bmm(q, keys, false, true).value();   // q . k_j: (c, 1, n)
            sum += xt::sum(scores)();
            sum_sq += xt::sum(scores * scores)();
            const Matrix<double> upstream = rng.normal_matrix<double>(c, n);
            fair.add(rows_of(scaled_dot_product_attention(q, keys, values).weights), upstream);
            raw.add(rows_of(scaled_dot_product_attention(q * std::sqrt(static_cast<double>(d)), keys, values).weights),
                    upstream);
        }
        const double count = static_cast<double>(trials) * static_cast<double>(n_keys);
        const double variance = sum_sq / count - (sum / count) * (sum / count);
        const double t = static_cast<double>(trials);
        rows.push_back({d, variance, variance / d, raw.max_weight / t, fair.max_weight / t, raw.entropy / t,
                        fair.entropy / t, raw.gradient_norm / t, fair.gradient_norm / t});
    }
    return rows;
}

}  // namespace attn::ch03
