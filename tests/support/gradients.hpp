// Reference tools for gradient checks, written independently of the exercises: a plain
// loop of central differences over a tensor of any rank. Their error measure is
// attn::max_relative_error (common/tensor.hpp), the one chapter 00 prints.
#pragma once
#include "common/tensor.hpp"

#include "common/xtensor_compat.hpp"

#include <functional>

namespace support {

// d f / d X by central differences with step h, entry by entry.
xt::xarray<double> numerical_gradient(const std::function<double(const xt::xarray<double>&)>& f,
                                      const xt::xarray<double>& X, double h = 1e-5);

// Where the tests find tests/data (set by CMake).
std::string data_path(const std::string& relative);

}  // namespace support
