// The GRU's weights (see gru.hpp).
#include "chapters/01_encoder_decoder/gru.hpp"

#include "common/autodiff/ops.hpp"
#include "common/nn/layers.hpp"

#include <cmath>
#include <stdexcept>

namespace attn::ch01 {

template <class T>
GruLayer<T>::GruLayer(std::size_t in, std::size_t H, Rng& rng) : input_size(in), hidden_size(H) {
    // PyTorch draws every GRU weight and bias uniformly from [-1/sqrt(H), 1/sqrt(H)]. The names
    // are torch.nn.GRU's for its first (here only) layer: weight_ih_l0, ...
    const double bound = 1.0 / std::sqrt(static_cast<double>(H));
    weight_ih = this->register_parameter("weight_ih_l0", uniform_array<T>({3 * H, in}, bound, rng));
    weight_hh = this->register_parameter("weight_hh_l0", uniform_array<T>({3 * H, H}, bound, rng));
    bias_ih = this->register_parameter("bias_ih_l0", uniform_array<T>({3 * H}, bound, rng));
    bias_hh = this->register_parameter("bias_hh_l0", uniform_array<T>({3 * H}, bound, rng));
}

template <class T>
Var<T> GruLayer<T>::project_inputs(const Var<T>& x) const {
    return matmul(x, weight_ih, false, true) + bias_ih;   // (..., 3H)   (1.1)
}

template <class T>
void check_gru_cell_shapes(const Var<T>& x_gates, const Var<T>& h, const GruLayer<T>& layer) {
    const std::size_t H = layer.hidden_size;
    if (x_gates.dim() != 2 || h.dim() != 2 || x_gates.shape(1) != 3 * H || h.shape(1) != H ||
        x_gates.shape(0) != h.shape(0))
        throw std::invalid_argument("gru_cell: expected x_gates (batch, 3H) and h (batch, H) with H = " +
                                    std::to_string(H) + ", got " + shape_string(x_gates.shape()) + " and " +
                                    shape_string(h.shape()));
}

template <class T>
void check_encoder_shapes(const Var<T>& X, const IndexVector& valid_lens, const GruLayer<T>& layer) {
    if (X.dim() != 3 || X.shape(2) != layer.input_size || valid_lens.size() != X.shape(0))
        throw std::invalid_argument("encode: expected X (batch, seq_len, " + std::to_string(layer.input_size) +
                                    ") and valid_lens (batch), got " + shape_string(X.shape()) + " and " +
                                    std::to_string(valid_lens.size()) + " lengths");
    for (const std::int64_t length : valid_lens)
        if (length < 1 || static_cast<std::size_t>(length) > X.shape(1))
            throw std::invalid_argument("encode: a valid length of " + std::to_string(length) +
                                        " does not fit a sequence of " + std::to_string(X.shape(1)));
}

template <class T>
Array<T> reading_mask(const IndexVector& valid_lens, std::size_t t) {
    Array<T> mask = Array<T>::from_shape({valid_lens.size(), std::size_t(1)});
    for (std::size_t b = 0; b < valid_lens.size(); ++b)
        mask(b, 0) = static_cast<std::size_t>(valid_lens(b)) > t ? T(1) : T(0);
    return mask;
}

// ---- instantiations: do not edit ----
template class GruLayer<float>;
template class GruLayer<double>;
template void check_gru_cell_shapes(const Var<float>&, const Var<float>&, const GruLayer<float>&);
template void check_gru_cell_shapes(const Var<double>&, const Var<double>&, const GruLayer<double>&);
template void check_encoder_shapes(const Var<float>&, const IndexVector&, const GruLayer<float>&);
template void check_encoder_shapes(const Var<double>&, const IndexVector&, const GruLayer<double>&);
template Array<float> reading_mask(const IndexVector&, std::size_t);
template Array<double> reading_mask(const IndexVector&, std::size_t);

}  // namespace attn::ch01
