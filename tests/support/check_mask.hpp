// CHECK_MASK(actual, expected): a doctest check for boolean masks (true = blocked) that, when it
// fails, lists the entries that differ, "[0, 1, 3]: expected blocked (true), got may attend
// (false)", instead of printing both tables (which doctest cuts after a few rows).
#pragma once
#include <doctest/doctest.h>
#include <xtensor/xarray.hpp>

#include <sstream>
#include <string>
#include <vector>

namespace support {

// Empty when the masks are equal; else the shapes, or the count of differing entries and
// the first few of them with their indices.
inline std::string mask_differences(const xt::xarray<bool>& actual, const xt::xarray<bool>& expected) {
    const auto shape_text = [](const xt::xarray<bool>& a) {
        std::string text = "(";
        for (std::size_t d = 0; d < a.dimension(); ++d) text += (d ? ", " : "") + std::to_string(a.shape(d));
        return text + ")";
    };
    if (!xt::same_shape(actual.shape(), expected.shape()))
        return "shapes differ: got " + shape_text(actual) + ", expected " + shape_text(expected);
    const auto meaning = [](bool blocked) { return blocked ? "blocked (true)" : "may attend (false)"; };
    constexpr std::size_t listed = 10;   // enough to see the pattern, short enough to read
    std::ostringstream report;
    std::size_t differing = 0;
    for (std::size_t k = 0; k < actual.size(); ++k) {
        if (actual.flat(k) == expected.flat(k) || ++differing > listed) continue;
        std::vector<std::size_t> index(actual.dimension());
        for (std::size_t d = actual.dimension(), rest = k; d-- > 0; rest /= actual.shape(d)) index[d] = rest % actual.shape(d);
        report << "  [";
        for (std::size_t d = 0; d < index.size(); ++d) report << (d ? ", " : "") << index[d];
        report << "]: expected " << meaning(expected.flat(k)) << ", got " << meaning(actual.flat(k)) << "\n";
    }
    if (differing == 0) return "";
    const std::string order = actual.dimension() == 3 ? " [batch, query i, key j]" : "";
    return std::to_string(differing) + " of " + std::to_string(actual.size()) + " entries differ (shape " +
           shape_text(actual) + ")" + (differing > listed ? ", the first " + std::to_string(listed) : "") + order +
           ":\n" + report.str();
}

}  // namespace support

#define CHECK_MASK(actual, expected)                                                              \
    do {                                                                                          \
        const std::string differing_entries_ = ::support::mask_differences((actual), (expected)); \
        CHECK_MESSAGE(differing_entries_.empty(),                                                 \
                      "CHECK_MASK(" #actual ", " #expected ")\n" << differing_entries_);           \
    } while (false)
