// Reading chapter 01's golden cases (tests/data/01_encoder_decoder/make_cases.py).
#pragma once
#include "chapters/01_encoder_decoder/gru.hpp"
#include "tests/support/gradients.hpp"

#include "common/xtensor_compat.hpp"

namespace golden01 {

constexpr double tolerance = 1e-12;   // float64 on both sides; only summation order differs

inline xt::xarray<double> load(const std::string& name) {
    return xt::load_npy<double>(support::data_path("01_encoder_decoder/" + name + ".npy"));
}
// The four GRU tensors of a case ("gru_cell_" or "gru_seq_") into `gru`.
inline void set_weights(attn::ch01::GruLayer<double>& gru, const std::string& prefix) {
    gru.weight_ih.value() = load(prefix + "weight_ih");
    gru.weight_hh.value() = load(prefix + "weight_hh");
    gru.bias_ih.value() = load(prefix + "bias_ih");
    gru.bias_hh.value() = load(prefix + "bias_hh");
}

}  // namespace golden01
