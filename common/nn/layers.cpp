// Linear, Embedding and Dropout (see layers.hpp).
#include "common/nn/layers.hpp"

#include "common/autodiff/ops.hpp"

#include <cmath>

namespace attn {

template <class T>
Array<T> uniform_array(const Shape& shape, double bound, Rng& rng) {
    Array<T> values = Array<T>::from_shape(shape);
    for (T& v : values) v = static_cast<T>(rng.uniform(-bound, bound));
    return values;
}

template <class T>
Linear<T>::Linear(std::size_t in_features, std::size_t out_features, Rng& rng, bool with_bias) {
    const double bound = 1.0 / std::sqrt(static_cast<double>(in_features));
    weight = this->register_parameter("weight", uniform_array<T>({out_features, in_features}, bound, rng));
    if (with_bias) bias = this->register_parameter("bias", uniform_array<T>({out_features}, bound, rng));
}

template <class T>
Var<T> Linear<T>::operator()(const Var<T>& x) const {
    // (..., out): x W^T + b, b broadcast over the rows (one op, one pass fewer: ops.hpp)
    return bias.defined() ? linear(x, weight, bias) : matmul(x, weight, false, true);
}

template <class T>
Embedding<T>::Embedding(std::size_t vocab_size, std::size_t dim, Rng& rng) {
    Array<T> values = Array<T>::from_shape({vocab_size, dim});
    for (T& v : values) v = static_cast<T>(rng.normal());
    weight = this->register_parameter("weight", std::move(values));
}

template <class T>
Var<T> Embedding<T>::operator()(const xt::xarray<std::int64_t>& ids) const {
    return embedding(weight, ids);
}

template <class T>
Dropout<T>::Dropout(double p, std::uint64_t seed) : p_(p), rng_(seed) {
    if (!(p >= 0.0 && p < 1.0)) throw std::invalid_argument("Dropout: p must be in [0, 1), got " + std::to_string(p));
}

template <class T>
Var<T> Dropout<T>::operator()(const Var<T>& x) {
    return dropout(x, p_, this->training(), rng_);
}

// ---- instantiations: do not edit ----
template class Linear<float>;
template class Linear<double>;
template class Embedding<float>;
template class Embedding<double>;
template class Dropout<float>;
template class Dropout<double>;
template Array<float> uniform_array(const Shape&, double, Rng&);
template Array<double> uniform_array(const Shape&, double, Rng&);

}  // namespace attn
