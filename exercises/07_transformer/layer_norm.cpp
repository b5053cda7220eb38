// Exercise 07.1: layer normalisation over the last axes, equation (7.1)
#include "chapters/07_transformer/layer_norm.hpp"

#include "common/autodiff/ops.hpp"

#include <stdexcept>

namespace attn::ch07 {

//   mu = mean of the slice,  var = mean((x - mu)^2)  (biased),
//   y = (x - mu) / sqrt(var + eps) * weight + bias                                     (7.1)
template <class T>
Var<T> layer_norm(const Var<T>& x, const Var<T>& weight, const Var<T>& bias, std::size_t normalized_dims, double eps) {
    // TODO(07.1): layer normalisation (7.1) of every slice of x over its last normalized_dims
    //             axes, with the learned weight and bias; refuse the arguments the header's
    //             contract names. Hint: ./course hint 07.1
    COURSE_TODO("07.1");
}

// ---- instantiations: do not edit ----
template Var<float> layer_norm(const Var<float>&, const Var<float>&, const Var<float>&, std::size_t, double);
template Var<double> layer_norm(const Var<double>&, const Var<double>&, const Var<double>&, std::size_t, double);

}  // namespace attn::ch07
