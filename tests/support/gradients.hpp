// Reference tools for gradient checks, written independently of the exercises: a plain
// loop of central differences over a tensor of any rank (COURSE.md: "every gradient checked").
#pragma once
#include <xtensor/xarray.hpp>

#include <functional>

namespace support {

// d f / d X by central differences with step h, entry by entry.
xt::xarray<double> numerical_gradient(const std::function<double(const xt::xarray<double>&)>& f,
                                      const xt::xarray<double>& X, double h = 1e-5);

// max |a - b| / max(max(|a| + |b|), 1e-8): the error measure of STYLE.md section 8.
double max_relative_error(const xt::xarray<double>& a, const xt::xarray<double>& b);

// Where the tests find tests/data (set by CMake).
std::string data_path(const std::string& relative);

}  // namespace support
