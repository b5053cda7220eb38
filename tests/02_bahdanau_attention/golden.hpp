// Reading chapter 02's golden cases (tests/data/02_bahdanau_attention/make_cases.py).
#pragma once
#include "chapters/02_bahdanau_attention/attention_layer.hpp"
#include "tests/support/gradients.hpp"

#include "common/xtensor_compat.hpp"

namespace golden02 {

inline xt::xarray<double> load(const std::string& name) {
    return xt::load_npy<double>(support::data_path("02_bahdanau_attention/" + name + ".npy"));
}
inline xt::xarray<std::int64_t> load_ids(const std::string& name) {
    return xt::load_npy<std::int64_t>(support::data_path("02_bahdanau_attention/" + name + ".npy"));
}
// An attention layer (query 4, key 6, hidden 7) holding the case's W_q, W_k and w_v.
inline void set_weights(attn::ch02::AdditiveAttention<double>& layer, const std::string& prefix) {
    layer.W_q.weight.value() = load(prefix + "W_q");
    layer.W_k.weight.value() = load(prefix + "W_k");
    layer.w_v.weight.value() = load(prefix + "w_v");
}

}  // namespace golden02
