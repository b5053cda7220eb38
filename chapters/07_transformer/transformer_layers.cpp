// The Transformer's modules (see transformer_layers.hpp): what each block is made of, named
// and initialised as torch.nn.Transformer.
#include "chapters/07_transformer/transformer_layers.hpp"

#include "chapters/07_transformer/layer_norm.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace attn::ch07 {

namespace {
Shape checked_normalized_shape(const Shape& shape) {
    if (shape.empty()) throw std::invalid_argument("LayerNorm: normalized_shape must have at least one axis");
    for (std::size_t size : shape)
        if (size == 0) throw std::invalid_argument("LayerNorm: normalized_shape " + shape_string(shape) + " has an empty axis");
    return shape;
}
}  // namespace

template <class T>
LayerNorm<T>::LayerNorm(const Shape& normalized_shape, double eps, NormStatistics statistics)
    : shape_(checked_normalized_shape(normalized_shape)), eps_(eps), statistics_(statistics) {
    if (!(eps > 0)) throw std::invalid_argument("LayerNorm: eps must be positive, got " + std::to_string(eps));
    if (statistics == NormStatistics::batch) {
        if (shape_.size() != 1) throw std::invalid_argument("LayerNorm: batch statistics need one normalised axis, got " + shape_string(shape_));
        running_ = fresh_statistics<T>(shape_[0]);
    }
    weight = this->register_parameter("weight", Array<T>(xt::ones<T>(shape_)));
    bias = this->register_parameter("bias", Array<T>(xt::zeros<T>(shape_)));
}

template <class T>
Var<T> LayerNorm<T>::operator()(const Var<T>& x) const {
    if (statistics_ == NormStatistics::batch) return batch_norm(x, weight, bias, running_, this->training(), 0.1, eps_);
    return layer_norm(x, weight, bias, shape_.size(), eps_);
}

// Children are registered in the order of PyTorch's __init__, so named_parameters() lists
// them in state_dict order.
template <class T>
TransformerEncoderLayer<T>::TransformerEncoderLayer(const TransformerSizes& sizes, Rng& rng)
    : self_attn(sizes.d_model, sizes.heads, rng),
      linear1(sizes.d_model, sizes.feed_forward, rng),
      linear2(sizes.feed_forward, sizes.d_model, rng),
      norm1({sizes.d_model}, 1e-5, sizes.statistics),
      norm2({sizes.d_model}, 1e-5, sizes.statistics),
      norm_placement(sizes.norm) {
    this->register_module("self_attn", self_attn);
    this->register_module("linear1", linear1);
    this->register_module("linear2", linear2);
    this->register_module("norm1", norm1);
    this->register_module("norm2", norm2);
}

template <class T>
TransformerDecoderLayer<T>::TransformerDecoderLayer(const TransformerSizes& sizes, Rng& rng)
    : self_attn(sizes.d_model, sizes.heads, rng),
      multihead_attn(sizes.d_model, sizes.heads, rng),
      linear1(sizes.d_model, sizes.feed_forward, rng),
      linear2(sizes.feed_forward, sizes.d_model, rng),
      norm1({sizes.d_model}, 1e-5, sizes.statistics),
      norm2({sizes.d_model}, 1e-5, sizes.statistics),
      norm3({sizes.d_model}, 1e-5, sizes.statistics),
      norm_placement(sizes.norm) {
    this->register_module("self_attn", self_attn);
    this->register_module("multihead_attn", multihead_attn);
    this->register_module("linear1", linear1);
    this->register_module("linear2", linear2);
    this->register_module("norm1", norm1);
    this->register_module("norm2", norm2);
    this->register_module("norm3", norm3);
}

template <class T>
TransformerEncoder<T>::TransformerEncoder(const TransformerSizes& sizes, Rng& rng) : norm({sizes.d_model}, 1e-5, sizes.statistics) {
    for (std::size_t i = 0; i < sizes.encoder_layers; ++i) {
        layers.push_back(std::make_unique<TransformerEncoderLayer<T>>(sizes, rng));
        this->register_module("layers." + std::to_string(i), *layers.back());
    }
    this->register_module("norm", norm);
}

template <class T>
TransformerDecoder<T>::TransformerDecoder(const TransformerSizes& sizes, Rng& rng) : norm({sizes.d_model}, 1e-5, sizes.statistics) {
    for (std::size_t i = 0; i < sizes.decoder_layers; ++i) {
        layers.push_back(std::make_unique<TransformerDecoderLayer<T>>(sizes, rng));
        this->register_module("layers." + std::to_string(i), *layers.back());
    }
    this->register_module("norm", norm);
}

template <class T>
Transformer<T>::Transformer(const TransformerSizes& sizes, Rng& rng)
    : encoder(sizes, rng), decoder(sizes, rng), sizes_(sizes) {
    this->register_module("encoder", encoder);
    this->register_module("decoder", decoder);
    xavier_uniform_matrices(*this, rng);
}

template <class T>
void xavier_uniform_matrices(const Module<T>& module, Rng& rng) {
    for (auto& [name, p] : module.named_parameters()) {
        if (p.dim() < 2) continue;
        const double fan_out = static_cast<double>(p.shape(0)), fan_in = static_cast<double>(p.shape(1));
        p.value() = uniform_array<T>(p.shape(), std::sqrt(6.0 / (fan_in + fan_out)), rng);
    }
}

// ---- instantiations: do not edit ----
template class LayerNorm<float>;
template class LayerNorm<double>;
template class TransformerEncoderLayer<float>;
template class TransformerEncoderLayer<double>;
template class TransformerDecoderLayer<float>;
template class TransformerDecoderLayer<double>;
template class TransformerEncoder<float>;
template class TransformerEncoder<double>;
template class TransformerDecoder<float>;
template class TransformerDecoder<double>;
template class Transformer<float>;
template class Transformer<double>;
template void xavier_uniform_matrices(const Module<float>&, Rng&);
template void xavier_uniform_matrices(const Module<double>&, Rng&);

}  // namespace attn::ch07
