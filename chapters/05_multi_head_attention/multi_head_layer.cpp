// The multi-head attention layer's parameters (see multi_head_layer.hpp).
#include "chapters/05_multi_head_attention/multi_head_layer.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace attn::ch05 {

namespace {
std::size_t checked_d_model(std::size_t d_model, std::size_t heads) {
    if (heads == 0 || d_model == 0 || d_model % heads != 0)
        throw std::invalid_argument("MultiHeadAttention: d_model " + std::to_string(d_model) +
                                    " must be a positive multiple of heads " + std::to_string(heads));
    return d_model;
}
}  // namespace

template <class T>
MultiHeadAttention<T>::MultiHeadAttention(std::size_t d_model, std::size_t heads, Rng& rng)
    : out_proj(checked_d_model(d_model, heads), d_model, rng), d_model_(d_model), heads_(heads) {
    // Xavier-uniform over the stacked (3d, d) matrix, as PyTorch: bound sqrt(6 / (fan_in + fan_out)).
    const double bound = std::sqrt(6.0 / static_cast<double>(d_model + 3 * d_model));
    in_proj_weight = this->register_parameter("in_proj_weight", uniform_array<T>({3 * d_model, d_model}, bound, rng));
    in_proj_bias = this->register_parameter("in_proj_bias", Array<T>(xt::zeros<T>({3 * d_model})));
    out_proj.bias.value().fill(T(0));
    this->register_module("out_proj", out_proj);
}

template class MultiHeadAttention<float>;
template class MultiHeadAttention<double>;

}  // namespace attn::ch05
