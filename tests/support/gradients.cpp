// Reference gradient tools (see gradients.hpp).
#include "tests/support/gradients.hpp"

#include "course_paths.hpp"

#include <xtensor/xmath.hpp>

#include <algorithm>
#include <stdexcept>

namespace support {

xt::xarray<double> numerical_gradient(const std::function<double(const xt::xarray<double>&)>& f,
                                      const xt::xarray<double>& X, double h) {
    xt::xarray<double> point = X;
    xt::xarray<double> gradient = xt::zeros<double>(X.shape());
    for (std::size_t k = 0; k < X.size(); ++k) {
        const double original = point.flat(k);
        point.flat(k) = original + h;
        const double up = f(point);
        point.flat(k) = original - h;
        const double down = f(point);
        point.flat(k) = original;
        gradient.flat(k) = (up - down) / (2 * h);
    }
    return gradient;
}

double max_relative_error(const xt::xarray<double>& a, const xt::xarray<double>& b) {
    if (!xt::same_shape(a.shape(), b.shape())) throw std::invalid_argument("max_relative_error: shapes differ");
    double difference = 0, scale = 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
        difference = std::max(difference, std::abs(a.flat(k) - b.flat(k)));
        scale = std::max(scale, std::abs(a.flat(k)) + std::abs(b.flat(k)));
    }
    return difference / std::max(scale, 1e-8);
}

std::string data_path(const std::string& relative) { return std::string(COURSE_TEST_DATA_DIR) + "/" + relative; }

}  // namespace support
