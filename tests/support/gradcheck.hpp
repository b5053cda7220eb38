// Gradient checks of autodiff ops: the gradients backward() computes for each input of
// f(inputs), contracted with a random upstream gradient, against central differences
// (float64, h = 1e-5, attn::max_relative_error; see the quality bars in docs/design.md).
#pragma once
#include "common/autodiff/var.hpp"

#include <functional>
#include <vector>

namespace support {

using VarFunction = std::function<attn::Var<double>(const std::vector<attn::Var<double>>&)>;

struct GradcheckResult {
    double worst_error = 0;         // over every input
    std::size_t worst_input = 0;
    std::string report;             // one line per input: its error
};

// L(inputs) = sum(f(inputs) * R) with R random (seeded); compares dL/d input_i from
// backward() with numerical differences, for every input (each one is a parameter).
GradcheckResult gradcheck(const VarFunction& f, const std::vector<xt::xarray<double>>& inputs,
                          std::uint64_t seed = 1, double h = 1e-5);

// Random N(0, 1) values of a shape, from a seeded generator.
xt::xarray<double> random_array(const std::vector<std::size_t>& shape, std::uint64_t seed, double scale = 1.0);

}  // namespace support
