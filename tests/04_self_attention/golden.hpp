// Reading chapter 04's golden cases (tests/data/04_self_attention/make_cases.py). Literal
// tensors for hand-worked cases come from chapter 03's golden03::t2 and golden03::t3.
#pragma once
#include "tests/03_queries_keys_values/golden.hpp"

namespace golden04 {

inline xt::xarray<double> load(const std::string& name) {
    return xt::load_npy<double>(support::data_path("04_self_attention/" + name + ".npy"));
}
inline xt::xarray<std::int64_t> load_ids(const std::string& name) {
    return xt::load_npy<std::int64_t>(support::data_path("04_self_attention/" + name + ".npy"));
}

}  // namespace golden04
