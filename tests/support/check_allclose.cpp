// CHECK_ALLCLOSE's comparison and its failure report (see check_allclose.hpp).
#include "tests/support/check_allclose.hpp"

#include <cmath>

namespace support {

namespace {

std::string shape_text(const xt::xarray<double>& a) {
    std::string text = "(";
    for (std::size_t d = 0; d < a.dimension(); ++d) text += (d ? ", " : "") + std::to_string(a.shape(d));
    return text + ")";
}

std::string tensor_text(const xt::xarray<double>& a) {
    if (a.size() > 24) return "(" + std::to_string(a.size()) + " values, too many to print)";
    std::ostringstream text;
    text << a;
    return text.str();
}

}  // namespace

AllcloseResult allclose(const xt::xarray<double>& actual, const xt::xarray<double>& expected, double rtol,
                        double atol) {
    AllcloseResult result;
    std::ostringstream report;
    if (!xt::same_shape(actual.shape(), expected.shape())) {
        report << "shapes differ: got " << shape_text(actual) << ", expected " << shape_text(expected);
        result.report = report.str();
        return result;
    }
    double worst_excess = -1.0;
    std::size_t worst = 0, bad = 0;
    for (std::size_t k = 0; k < actual.size(); ++k) {
        const double a = actual.flat(k), e = expected.flat(k);
        const double excess = std::isnan(a) || std::isnan(e) ? INFINITY : std::abs(a - e) - (atol + rtol * std::abs(e));
        if (excess > 0) ++bad;
        if (excess > worst_excess || k == 0) {
            worst_excess = excess;
            worst = k;
        }
    }
    result.ok = bad == 0;
    if (!result.ok) {
        report << bad << " of " << actual.size() << " values differ (shape " << shape_text(actual)
               << ", rtol " << rtol << ", atol " << atol << "); worst at flat index " << worst << ": got "
               << actual.flat(worst) << ", expected " << expected.flat(worst) << "\n"
               << "got:\n" << tensor_text(actual) << "\nexpected:\n" << tensor_text(expected);
        result.report = report.str();
    }
    return result;
}

}  // namespace support
