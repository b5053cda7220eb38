// Reading chapter 07's golden cases (tests/data/07_transformer/make_cases.py), the layers
// they were computed with, the comparison of a forward and backward pass with a case, and a
// plain reference layer norm for hand-worked checks.
#pragma once
#include "chapters/07_transformer/transformer_layers.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/gradients.hpp"
#include "tests/support/load_parameters.hpp"

#include "common/xtensor_compat.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace golden07 {

inline xt::xarray<double> load(const std::string& name) {
    return xt::load_npy<double>(support::data_path("07_transformer/" + name + ".npy"));
}
// The masks are stored as 0/1 integers; true = blocked.
inline attn::ch03::Mask load_mask(const std::string& name) {
    const xt::xarray<std::int64_t> ones = xt::load_npy<std::int64_t>(support::data_path("07_transformer/" + name + ".npy"));
    return xt::not_equal(ones, std::int64_t{0});
}

// The script's sizes: d_model 16, 4 heads, feed-forward 32.
inline attn::ch07::TransformerSizes sizes(attn::ch07::NormPlacement norm, std::size_t layers = 1) {
    attn::ch07::TransformerSizes s;
    s.d_model = 16, s.heads = 4, s.feed_forward = 32, s.encoder_layers = layers, s.decoder_layers = layers, s.norm = norm;
    return s;
}

inline std::string placement_name(attn::ch07::NormPlacement norm) {
    return norm == attn::ch07::NormPlacement::post ? "post" : "pre";
}

// The data folder of each block's case.
inline std::string folder_of(const attn::ch07::TransformerEncoderLayer<double>&) { return "encoder_layer"; }
inline std::string folder_of(const attn::ch07::TransformerDecoderLayer<double>&) { return "decoder_layer"; }

// A block of the script's sizes with its weights: nn.TransformerEncoderLayer or
// nn.TransformerDecoderLayer(16, 4, 32), random norms and biases, from the block's folder.
template <class Layer>
struct GoldenLayer {
    attn::Rng rng{1};
    Layer layer;
    explicit GoldenLayer(attn::ch07::NormPlacement norm) : layer(sizes(norm), rng) {
        support::load_parameters(layer, "07_transformer/" + folder_of(layer) + "/");
    }
};
using GoldenEncoderLayer = GoldenLayer<attn::ch07::TransformerEncoderLayer<double>>;
using GoldenDecoderLayer = GoldenLayer<attn::ch07::TransformerDecoderLayer<double>>;

// Every parameter's gradient against <file_prefix>d.<name>.npy, named when it differs.
inline void check_gradients(const attn::Module<double>& module, const std::string& file_prefix, double rtol,
                            double atol) {
    for (const auto& [name, parameter] : module.named_parameters()) {
        CAPTURE(name);
        REQUIRE_MESSAGE(parameter.has_grad(), "no gradient reached " << name);
        CHECK_ALLCLOSE(parameter.grad(), load(file_prefix + "d." + name), rtol, atol);
    }
}

// One of the script's cases in <folder>/, to 1e-10: `out` against <variant>output.npy; then,
// after a backward pass from doutput.npy, each named input x's gradient against
// <variant>dx.npy and every parameter's against <variant>d.<name>.npy. variant: "post_",
// "pre_" or "" (a case with one norm placement only).
inline void check_against_pytorch(const attn::Module<double>& module, const attn::Var<double>& out,
                                  const std::string& folder, const std::string& variant,
                                  const std::vector<std::pair<std::string, attn::Var<double>>>& inputs) {
    const std::string prefix = folder + "/" + variant;
    CHECK_ALLCLOSE(out.value(), load(prefix + "output"), 1e-10, 1e-12);
    attn::backward(out, load(folder + "/doutput"));
    for (const auto& [name, input] : inputs) {
        CAPTURE(name);
        CHECK_ALLCLOSE(input.grad(), load(prefix + "d" + name), 1e-10, 1e-12);
    }
    check_gradients(module, prefix, 1e-10, 1e-12);
}

// Layer normalisation of x (..., d) over its last axis, written directly in xtensor,
// independently of exercise 07.1: the tests' own reference for hand-worked cases.
inline xt::xarray<double> plain_layer_norm(const xt::xarray<double>& x, const xt::xarray<double>& weight,
                                           const xt::xarray<double>& bias, double eps = 1e-5) {
    const std::size_t last = x.dimension() - 1;
    const xt::xarray<double> mu = xt::mean(x, {last}, xt::keep_dims);   // materialised before broadcasting
    const xt::xarray<double> centred = x - mu;
    const xt::xarray<double> variance = xt::mean(centred * centred, {last}, xt::keep_dims);
    return centred / xt::sqrt(variance + eps) * weight + bias;
}
inline xt::xarray<double> plain_layer_norm(const xt::xarray<double>& x, const attn::ch07::LayerNorm<double>& norm) {
    return plain_layer_norm(x, norm.weight.value(), norm.bias.value(), norm.eps());
}

// Makes a sub-layer output exactly zero, so a hand-worked case can isolate the others.
inline void silence(attn::ch05::MultiHeadAttention<double>& attention) {
    attention.out_proj.weight.value().fill(0.0);
    attention.out_proj.bias.value().fill(0.0);
}
inline void silence_feed_forward(attn::Linear<double>& linear2) {
    linear2.weight.value().fill(0.0);
    linear2.bias.value().fill(0.0);
}

// Random, non-trivial norm parameters (a norm left at weight 1, bias 0 hides mistakes).
inline void randomise(attn::ch07::LayerNorm<double>& norm, std::uint64_t seed) {
    norm.weight.value() = 1.0 + 0.5 * support::random_array(norm.normalized_shape(), seed);
    norm.bias.value() = 0.5 * support::random_array(norm.normalized_shape(), seed + 1);
}

}  // namespace golden07
