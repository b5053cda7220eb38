// The chapter's data set: points in the plane from three overlapping Gaussian clouds.
#pragma once
#include "common/random.hpp"
#include "common/tensor.hpp"

#include <string>
#include <vector>

namespace attn::ch00 {

struct LabelledPoints {
    Matrix<double> X;                  // (n, 2): one point per row
    std::vector<std::size_t> labels;   // n class indices in {0, 1, 2}
};

constexpr std::size_t num_classes = 3;
std::vector<std::string> class_names();

// per_class points around each of three centres on a circle of radius 2 (standard
// deviation 1 in each direction, so the clouds overlap and no line separates them
// perfectly), in a shuffled order.
LabelledPoints make_three_clouds(std::size_t per_class, Rng& rng);

}  // namespace attn::ch00
