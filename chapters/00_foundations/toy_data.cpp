// Three overlapping Gaussian clouds in the plane (see toy_data.hpp).
#include "chapters/00_foundations/toy_data.hpp"

#include <cmath>

namespace attn::ch00 {

std::vector<std::string> class_names() { return {"north", "south-west", "south-east"}; }

LabelledPoints make_three_clouds(std::size_t per_class, Rng& rng) {
    constexpr double radius = 2.0, spread = 1.0;
    const std::size_t n = per_class * num_classes;
    LabelledPoints data{xt::zeros<double>({n, std::size_t(2)}), std::vector<std::size_t>(n)};
    const std::vector<std::size_t> order = rng.permutation(n);   // shuffle as we place them
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t label = k % num_classes;
        const double angle = M_PI / 2 + 2 * M_PI * static_cast<double>(label) / num_classes;
        const std::size_t row = order[k];
        data.X(row, 0) = radius * std::cos(angle) + rng.normal(0.0, spread);
        data.X(row, 1) = radius * std::sin(angle) + rng.normal(0.0, spread);
        data.labels[row] = label;
    }
    return data;
}

}  // namespace attn::ch00
