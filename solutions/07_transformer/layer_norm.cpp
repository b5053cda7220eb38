// Exercise 07.1: layer normalisation over the last axes, equation (7.1)
#include "chapters/07_transformer/layer_norm.hpp"

#include "common/autodiff/ops.hpp"

#include <stdexcept>

namespace attn::ch07 {

//   mu = mean of the slice,  var = mean((x - mu)^2)  (biased),
//   y = (x - mu) / sqrt(var + eps) * weight + bias                                     (7.1)
template <class T>
Var<T> layer_norm(const Var<T>& x, const Var<T>& weight, const Var<T>& bias, std::size_t normalized_dims, double eps) {
    const Shape shape = x.shape();
    if (normalized_dims == 0 || normalized_dims > shape.size())
        throw std::invalid_argument("layer_norm: cannot normalise over the last " + std::to_string(normalized_dims) +
                                    " axes of x " + shape_string(shape));
    const std::size_t first = shape.size() - normalized_dims;   // the first normalised axis
    const Shape slice_shape(shape.begin() + static_cast<std::ptrdiff_t>(first), shape.end());
    if (weight.shape() != slice_shape || bias.shape() != slice_shape)
        throw std::invalid_argument("layer_norm: weight " + shape_string(weight.shape()) + " and bias " +
                                    shape_string(bias.shape()) + " must both have the shape of x's last axes " +
                                    shape_string(slice_shape));

    // One slice = one row: flatten the normalised axes into one, so that a single mean over
    // the last axis covers the whole slice (the 2-D normalised shape included).
    Shape rows_shape(shape.begin(), shape.begin() + static_cast<std::ptrdiff_t>(first));
    std::size_t slice_size = 1;
    for (std::size_t size : slice_shape) slice_size *= size;
    rows_shape.push_back(slice_size);
    const Var<T> rows = reshape(x, rows_shape);

    const Var<T> mu = mean(rows, first, true);                   // (..., 1)
    const Var<T> centred = rows - mu;
    const Var<T> variance = mean(centred * centred, first, true);   // divides by the slice size
    const Var<T> normalised = centred / sqrt(variance + static_cast<T>(eps));
    return reshape(normalised, shape) * weight + bias;         // (7.1)
}

// ---- instantiations: do not edit ----
template Var<float> layer_norm(const Var<float>&, const Var<float>&, const Var<float>&, std::size_t, double);
template Var<double> layer_norm(const Var<double>&, const Var<double>&, const Var<double>&, std::size_t, double);

}  // namespace attn::ch07
