// CHECK_ALLCLOSE's comparison and its failure report (see check_allclose.hpp).
#include "tests/support/check_allclose.hpp"

#include <cmath>
#include <iomanip>
#include <vector>

namespace support {

namespace {

constexpr std::size_t differences_listed = 3;   // enough to see a pattern, short enough to read
constexpr std::size_t small_enough_to_print = 8;

std::string shape_text(const xt::xarray<double>& a) {
    std::string text = "(";
    for (std::size_t d = 0; d < a.dimension(); ++d) text += (d ? ", " : "") + std::to_string(a.shape(d));
    return text + ")";
}

// The multi-index of flat index k, "[1, 0, 2]": learners think in rows and columns.
std::string index_text(const xt::xarray<double>& a, std::size_t k) {
    std::vector<std::size_t> index(a.dimension());
    for (std::size_t d = a.dimension(); d-- > 0;) {
        index[d] = k % a.shape(d);
        k /= a.shape(d);
    }
    std::string text = "[";
    for (std::size_t d = 0; d < index.size(); ++d) text += (d ? ", " : "") + std::to_string(index[d]);
    return text + "]";
}

std::string number(double v) {
    std::ostringstream text;
    text << std::setprecision(6) << v;
    return text.str();
}

// Every value on one line, "[0.5, 0.25, 0.25]", for tensors small enough to take in at once.
std::string flat_text(const xt::xarray<double>& a) {
    std::string text = "[";
    for (std::size_t k = 0; k < a.size(); ++k) text += (k ? ", " : "") + number(a.flat(k));
    return text + "]";
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
    std::vector<std::size_t> first_bad;
    for (std::size_t k = 0; k < actual.size(); ++k) {
        const double a = actual.flat(k), e = expected.flat(k);
        const double excess = std::isnan(a) || std::isnan(e) ? INFINITY : std::abs(a - e) - (atol + rtol * std::abs(e));
        if (excess > 0 && ++bad <= differences_listed) first_bad.push_back(k);
        if (excess > worst_excess || k == 0) {
            worst_excess = excess;
            worst = k;
        }
    }
    result.ok = bad == 0;
    if (result.ok) return result;
    report << bad << " of " << actual.size() << " values differ (shape " << shape_text(actual) << ", rtol " << rtol
           << ", atol " << atol << ")\n";
    if (actual.size() <= small_enough_to_print) {
        report << "got      " << flat_text(actual) << "\nexpected " << flat_text(expected) << "\n";
    } else {
        report << "first at";
        for (std::size_t k : first_bad)
            report << (k == first_bad.front() ? " " : "; ") << index_text(actual, k) << ": got " << number(actual.flat(k))
                   << ", expected " << number(expected.flat(k));
        report << "\nworst at " << index_text(actual, worst) << ": got " << number(actual.flat(worst)) << ", expected "
               << number(expected.flat(worst)) << "\n";
    }
    result.report = report.str();
    return result;
}

}  // namespace support
