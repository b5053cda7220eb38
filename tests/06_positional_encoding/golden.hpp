// Reading chapter 06's golden cases (tests/data/06_positional_encoding/make_cases.py), and the
// frequencies of (6.1) written out once for the tests' own hand computations.
#pragma once
#include "tests/03_queries_keys_values/golden.hpp"

#include <cmath>
#include <vector>

namespace golden06 {

inline xt::xarray<double> load(const std::string& name) {
    return xt::load_npy<double>(support::data_path("06_positional_encoding/" + name + ".npy"));
}
// The positions whose rows the far-position cases hold (pe_far_positions), as row indices.
inline std::vector<std::size_t> far_positions() {
    const xt::xarray<std::int64_t> ids =
        xt::load_npy<std::int64_t>(support::data_path("06_positional_encoding/pe_far_positions.npy"));
    return std::vector<std::size_t>(ids.begin(), ids.end());
}

// w_j = 10000^(-2j / d), pair j's frequency (6.1).
inline double frequency(std::size_t j, std::size_t d) {
    return std::pow(10000.0, -2.0 * static_cast<double>(j) / static_cast<double>(d));
}

}  // namespace golden06
