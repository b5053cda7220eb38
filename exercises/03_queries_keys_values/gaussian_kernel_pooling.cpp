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
    // TODO(03.1): score every query against every key with the Gaussian kernel (3.3), turn
    //             each query's scores into weights that sum to 1 over the keys (with your
    //             chapter 00 softmax, ch00::softmax from softmax_op.hpp), and average
    //             the values with them (3.1). With leave_one_out, query i must give key i
    //             exactly zero weight. Return {output (n_q), weights (n_q, n_k)}; the width
    //             must get a gradient. Hint: ./course hint 03.1
    COURSE_TODO("03.1");
}

// ---- instantiations: do not edit ----
template Attention<float> gaussian_kernel_pooling(const Var<float>&, const Var<float>&, const Var<float>&,
                                                  const Var<float>&, bool);
template Attention<double> gaussian_kernel_pooling(const Var<double>&, const Var<double>&, const Var<double>&,
                                                   const Var<double>&, bool);

}  // namespace attn::ch03
