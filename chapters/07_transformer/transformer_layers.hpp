// The Transformer's parameters, named and laid out as torch.nn.Transformer (batch_first=True,
// norm_first=False, activation ReLU, LayerNorm eps 1e-5), so that a PyTorch state_dict loads
// name for name:
//   encoder.layers.0.self_attn.in_proj_weight, encoder.layers.0.linear1.weight,
//   encoder.layers.0.norm1.weight, ..., encoder.norm.weight,
//   decoder.layers.1.multihead_attn.out_proj.bias, decoder.layers.1.norm3.bias, ..., decoder.norm.bias
// Each block's forward is an exercise (encoder_layer.hpp, decoder_layer.hpp); this file only
// holds what the blocks are made of.
#pragma once
#include "chapters/05_multi_head_attention/multi_head_layer.hpp"
#include "chapters/07_transformer/batch_norm.hpp"
#include "common/nn/layers.hpp"

#include <memory>
#include <vector>

namespace attn::ch07 {

// Where the layer normalisation sits around each sub-layer f (attention or feed-forward):
//   post-norm (the paper, PyTorch's default):  x = norm(x + f(x))
//   pre-norm:                                  x = x + f(norm(x))
enum class NormPlacement { post, pre };

// Whose statistics the norms use: each position's own features (layer normalisation, (7.1),
// the Transformer's), or each feature's over the training batch (batch normalisation,
// batch_norm.hpp: only for part 9's ablation, which never saves such a model).
enum class NormStatistics { layer, batch };

// Layer normalisation over the last axes of x (their sizes: normalized_shape), with a learned
// scale `weight` (initialised to 1) and shift `bias` (0), both of shape normalized_shape, as
// torch.nn.LayerNorm. The forward is exercise 07.1 (layer_norm.hpp). With
// NormStatistics::batch (one normalised axis only) the same parameters normalise with batch
// statistics instead, as torch.nn.BatchNorm1d (momentum 0.1), keeping running averages for
// evaluation: the blocks call norm1(...) either way.
template <class T>
class LayerNorm : public Module<T> {
public:
    explicit LayerNorm(const Shape& normalized_shape, double eps = 1e-5, NormStatistics statistics = NormStatistics::layer);
    Var<T> operator()(const Var<T>& x) const;
    const Shape& normalized_shape() const { return shape_; }
    double eps() const { return eps_; }
    NormStatistics statistics() const { return statistics_; }
    const RunningStatistics<T>& running() const { return running_; }   // batch statistics only

    Var<T> weight, bias;

private:
    Shape shape_;
    double eps_;
    NormStatistics statistics_;
    mutable RunningStatistics<T> running_;   // a training forward updates them, as BatchNorm1d's buffers
};

// The sizes of a Transformer (nn.Transformer's arguments).
struct TransformerSizes {
    std::size_t d_model = 64, heads = 4, feed_forward = 256;
    std::size_t encoder_layers = 2, decoder_layers = 2;
    NormPlacement norm = NormPlacement::post;
    NormStatistics statistics = NormStatistics::layer;
};

// One encoder block: self-attention, then the position-wise feed-forward network
// linear2(relu(linear1(x))), each wrapped in a residual connection and a layer norm.
template <class T>
class TransformerEncoderLayer : public Module<T> {
public:
    TransformerEncoderLayer(const TransformerSizes& sizes, Rng& rng);
    ch05::MultiHeadAttention<T> self_attn;
    Linear<T> linear1, linear2;   // d_model -> feed_forward -> d_model
    LayerNorm<T> norm1, norm2;    // after (post-norm) or before (pre-norm) self_attn and the FFN
    NormPlacement norm_placement;
};

// One decoder block: causal self-attention, cross-attention over the encoder's output (the
// "memory"), then the feed-forward network, each with its residual connection and norm.
template <class T>
class TransformerDecoderLayer : public Module<T> {
public:
    TransformerDecoderLayer(const TransformerSizes& sizes, Rng& rng);
    ch05::MultiHeadAttention<T> self_attn, multihead_attn;   // multihead_attn: the cross-attention
    Linear<T> linear1, linear2;
    LayerNorm<T> norm1, norm2, norm3;
    NormPlacement norm_placement;
};

// The stacks, with the final norm that nn.Transformer puts after each of them.
template <class T>
class TransformerEncoder : public Module<T> {
public:
    TransformerEncoder(const TransformerSizes& sizes, Rng& rng);
    std::vector<std::unique_ptr<TransformerEncoderLayer<T>>> layers;   // "layers.0", "layers.1", ...
    LayerNorm<T> norm;
};

template <class T>
class TransformerDecoder : public Module<T> {
public:
    TransformerDecoder(const TransformerSizes& sizes, Rng& rng);
    std::vector<std::unique_ptr<TransformerDecoderLayer<T>>> layers;
    LayerNorm<T> norm;
};

// nn.Transformer re-initialises every matrix of its module Xavier-uniform, bound
// sqrt(6 / (fan_in + fan_out)), over what its layers drew, in the order named_parameters()
// lists them; biases and the norms keep their layer's values.
template <class T>
void xavier_uniform_matrices(const Module<T>& module, Rng& rng);

// encoder + decoder, as torch.nn.Transformer (without embeddings or the output layer: those
// belong to the translation model that uses it).
template <class T>
class Transformer : public Module<T> {
public:
    Transformer(const TransformerSizes& sizes, Rng& rng);
    const TransformerSizes& sizes() const { return sizes_; }
    TransformerEncoder<T> encoder;
    TransformerDecoder<T> decoder;

private:
    TransformerSizes sizes_;
};

}  // namespace attn::ch07
