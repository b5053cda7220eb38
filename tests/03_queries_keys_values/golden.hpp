// Reading chapter 03's golden cases (tests/data/03_queries_keys_values/make_cases.py).
#pragma once
#include "tests/support/gradients.hpp"

#include "common/xtensor_compat.hpp"

#include <cstdint>
#include <string>

namespace golden03 {

inline xt::xarray<double> load(const std::string& name) {
    return xt::load_npy<double>(support::data_path("03_queries_keys_values/" + name + ".npy"));
}
inline xt::xarray<std::int64_t> load_ids(const std::string& name) {
    return xt::load_npy<std::int64_t>(support::data_path("03_queries_keys_values/" + name + ".npy"));
}

// Literal tensors for hand-worked cases: xt::xarray's own braces are ambiguous for one-element
// rows, and a function call keeps the commas inside CHECK_ALLCLOSE's arguments together.
template <class T = double>
xt::xarray<T> t2(std::initializer_list<std::initializer_list<T>> rows) { return xt::xtensor<T, 2>(rows); }
template <class T = double>
xt::xarray<T> t3(std::initializer_list<std::initializer_list<std::initializer_list<T>>> blocks) {
    return xt::xtensor<T, 3>(blocks);
}

}  // namespace golden03
