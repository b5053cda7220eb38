// CHECK_MASK(actual, expected): a doctest check for boolean masks (true = blocked) that, when it
// fails, lists the entries that differ, "[0, 1, 3]: expected blocked (true), got may attend
// (false)", instead of printing both tables (which doctest cuts after a few rows).
// CHECK_MASK_ENTRY(mask, b, i, j, expected, why): one entry, with the reason it must have that
// value: "blocked(0, 3, 5) is true (blocked), expected false (may attend): |3 - 5| = 2 = window".
#pragma once
#include "tests/support/report_limits.hpp"

#include <doctest/doctest.h>
#include "common/xtensor_compat.hpp"

#include <sstream>
#include <string>
#include <vector>

namespace support {

inline const char* mask_meaning(bool blocked) { return blocked ? "blocked (true)" : "may attend (false)"; }

// As many differing entries as `./course check` shows under a failing CHECK_MASK: its lines are
// the "check:" line, "CHECK_MASK(...)", the count, then the entries (report_limits.hpp).
constexpr std::size_t mask_entries_listed = max_detail_lines - 3;

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
    constexpr std::size_t listed = mask_entries_listed;
    std::ostringstream report;
    std::size_t differing = 0;
    for (std::size_t k = 0; k < actual.size(); ++k) {
        if (actual.flat(k) == expected.flat(k) || ++differing > listed) continue;
        std::vector<std::size_t> index(actual.dimension());
        for (std::size_t d = actual.dimension(), rest = k; d-- > 0; rest /= actual.shape(d)) index[d] = rest % actual.shape(d);
        report << "  [";
        for (std::size_t d = 0; d < index.size(); ++d) report << (d ? ", " : "") << index[d];
        report << "]: expected " << mask_meaning(expected.flat(k)) << ", got " << mask_meaning(actual.flat(k)) << "\n";
    }
    if (differing == 0) return "";
    const std::string order = actual.dimension() == 3 ? " [batch, query i, key j]" : "";
    const std::string which = differing > listed ? "the first " + std::to_string(listed) : "they are";
    return std::to_string(differing) + " of " + std::to_string(actual.size()) + " entries differ (shape " +
           shape_text(actual) + "), " + which + order + ":\n" + report.str();
}

// Empty when mask(b, i, j) == expected; else what it is, what it should be and why.
template <class Mask>
std::string mask_entry_difference(const Mask& mask, std::size_t b, std::size_t i, std::size_t j, bool expected,
                                  const std::string& why) {
    const bool actual = mask(b, i, j);
    if (actual == expected) return "";
    return "blocked(" + std::to_string(b) + ", " + std::to_string(i) + ", " + std::to_string(j) + ") is " +
           mask_meaning(actual) + ", expected " + mask_meaning(expected) + ": " + why;
}

}  // namespace support

#define CHECK_MASK(actual, expected)                                                       \
    do {                                                                                   \
        const std::string mask_report_ = ::support::mask_differences((actual), (expected)); \
        CHECK_MESSAGE(mask_report_.empty(), "CHECK_MASK(" #actual ", " #expected ")\n" << mask_report_); \
    } while (false)

#define CHECK_MASK_ENTRY(mask, b, i, j, expected, why)                                                    \
    do {                                                                                                  \
        const std::string mask_report_ = ::support::mask_entry_difference((mask), (b), (i), (j), (expected), (why)); \
        CHECK_MESSAGE(mask_report_.empty(), mask_report_);                                                \
    } while (false)
