// Reference gradient tools (see gradients.hpp).
#include "tests/support/gradients.hpp"

#include "course_paths.hpp"

#include "common/xtensor_compat.hpp"

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

std::string data_path(const std::string& relative) { return std::string(COURSE_TEST_DATA_DIR) + "/" + relative; }

}  // namespace support
