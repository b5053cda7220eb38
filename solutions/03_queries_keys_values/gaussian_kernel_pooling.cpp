// Exercise 03.1: Nadaraya-Watson kernel regression as attention pooling, equations (3.1)-(3.3).
#include "chapters/03_queries_keys_values/gaussian_kernel_pooling.hpp"

#include "chapters/00_foundations/softmax_op.hpp"
#include "common/autodiff/ops.hpp"

namespace attn::ch03 {

// alpha(x, x_i) = softmax_i(-((x - x_i) w)^2 / 2), f(x) = sum_i alpha(x, x_i) y_i     (3.1)-(3.3)
// queries (n_q), keys (n_k), values (n_k), width (1) -> output (n_q), weights (n_q, n_k)
template <class T>
Attention<T> gaussian_kernel_pooling(const Var<T>& queries, const Var<T>& keys, const Var<T>& values,
                                     const Var<T>& width, bool leave_one_out) {
    check_kernel_shapes(queries, keys, values, width, leave_one_out);
    const std::size_t n_q = queries.size(), n_k = keys.size();
    // Every query against every key at once: a column minus a row broadcasts to (n_q, n_k).
    const Var<T> distance = reshape(queries, {n_q, 1}) - reshape(keys, {1, n_k});
    const Var<T> scaled = distance * reshape(width, {1, 1});                  // (x - x_i) w
    Var<T> scores = T(-0.5) * scaled * scaled;                                // (3.3): near keys score highest
    if (leave_one_out)   // a point may not predict itself: block the diagonal
        scores = scores + constant<T>(Array<T>(T(blocked_score) * xt::eye<T>(n_q)));
    const Var<T> weights = ch00::softmax(scores);                             // (n_q, n_k), rows sum to 1
    const Var<T> output = reshape(matmul(weights, reshape(values, {n_k, 1})), {n_q});   // (3.1)
    return {output, weights};
}

// ---- instantiations: do not edit ----
template Attention<float> gaussian_kernel_pooling(const Var<float>&, const Var<float>&, const Var<float>&,
                                                  const Var<float>&, bool);
template Attention<double> gaussian_kernel_pooling(const Var<double>&, const Var<double>&, const Var<double>&,
                                                   const Var<double>&, bool);

}  // namespace attn::ch03
