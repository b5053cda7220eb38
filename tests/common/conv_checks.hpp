// What the tests of Conv1d and Conv2d check alike: the PyTorch golden case (weight, bias, x,
// dy and the expected y, dx, dweight, dbias in tests/data/common/golden/NAME_*.npy, written by
// make_golden.py), a layer built around given weight and bias Vars for gradient checks, and
// the one-line refusal of a shape. Conv is Conv1d<double> or Conv2d<double>: both are built as
// Conv(in, out, k, rng) and keep weight (out, in, k, ...).
#pragma once
#include "common/autodiff/ops.hpp"
#include "common/nn/npy.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradients.hpp"

#include <string>

namespace conv_checks {

using A = xt::xarray<double>;

inline A golden(const std::string& name) {
    return attn::read_npy<double>(support::data_path("common/golden/" + name + ".npy"));
}

// A convolution whose weight and bias are the given Vars (so gradients can be checked against them).
template <class Conv>
struct ConvWith {
    attn::Rng rng{0};
    Conv conv;
    ConvWith(const attn::Var<double>& weight, const attn::Var<double>& bias)
        : conv(weight.shape(1), weight.shape(0), weight.shape(2), rng) {
        conv.weight = weight;
        conv.bias = bias;
    }
};

// The forward pass and every gradient against PyTorch's, in float64 on both sides (only the
// summation order differs).
template <class Conv>
void check_against_golden(const std::string& name) {
    constexpr double tol = 1e-12;
    CAPTURE(name);
    const attn::Var<double> weight = attn::parameter<double>(golden(name + "_weight"));
    const attn::Var<double> bias = attn::parameter<double>(golden(name + "_bias"));
    const ConvWith<Conv> with(weight, bias);
    const attn::Var<double> x = attn::parameter<double>(golden(name + "_x"));
    const attn::Var<double> y = with.conv(x);
    CHECK_ALLCLOSE(y.value(), golden(name + "_y"), tol, tol);
    attn::backward(y, golden(name + "_dy"));
    CHECK_ALLCLOSE(x.grad(), golden(name + "_dx"), tol, tol);
    CHECK_ALLCLOSE(weight.grad(), golden(name + "_dweight"), tol, tol);
    CHECK_ALLCLOSE(bias.grad(), golden(name + "_dbias"), tol, tol);
}

// True if conv refuses an input of `shape` with a one-line std::invalid_argument naming `who`.
template <class Conv>
bool refuses(const Conv& conv, const attn::Shape& shape, const std::string& who) {
    try {
        conv(attn::constant<double>(A(xt::zeros<double>(shape))));
    } catch (const std::invalid_argument& e) {
        const std::string message = e.what();
        CHECK(message.find('\n') == std::string::npos);
        CHECK(message.find(who) != std::string::npos);
        return true;
    }
    return false;
}

}  // namespace conv_checks
