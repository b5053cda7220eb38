// The receptive field, measured rather than derived: which input positions can change output
// i of a model. Backpropagate from output i alone and look at the gradient of every input
// position; where it is exactly zero, no path of the computation leads from that input to
// output i. Chapter 04 compares a stack of L convolutions of kernel 3 (2L + 1 positions) with
// one self-attention layer (all n).
#pragma once
#include "common/autodiff/var.hpp"
#include "common/plot.hpp"
#include "common/random.hpp"

#include <functional>
#include <string>
#include <vector>

namespace attn::ch04 {

struct ReceptiveField {
    std::string model;            // "conv L=2", "self-attention"
    std::vector<bool> reaches;    // reaches[j]: d output_i / d x_j is not zero (one entry per position)

    std::size_t width() const;    // how many positions reach output i
    std::size_t first() const;    // the first and last of them (0 and 0 if none does)
    std::size_t last() const;
};

// model maps X (1, n, d) to outputs (1, n, any size). Feeds a random X, backpropagates the sum
// of output `i`'s entries, and marks the positions j whose gradient d/dx_j is not zero.
std::vector<bool> positions_reaching(const std::function<Var<double>(const Var<double>&)>& model, std::size_t n,
                                     std::size_t d, std::size_t i, Rng& rng);

// For output i of n positions, vectors of size d, random weights: a stack of L = 1 ..
// max_layers convolutions of kernel 3 (no nonlinearity between them, so that no ReLU can zero
// a gradient by chance), then one self-attention layer (04.1, no padding), in that order.
std::vector<ReceptiveField> receptive_fields(std::size_t n, std::size_t d, std::size_t i, std::size_t max_layers,
                                             Rng& rng);

// One row per model, one column per input position, in two colours ("can influence output i"
// or not); output i's column outlined.
plot::Heatmap receptive_field_heatmap(const std::vector<ReceptiveField>& fields, std::size_t i);

}  // namespace attn::ch04
