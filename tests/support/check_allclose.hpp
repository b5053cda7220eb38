// CHECK_ALLCLOSE(actual, expected, rtol, atol): a doctest check for tensors that, when it
// fails, says how many values differ, the first few and the worst (with their indices), or
// both tensors on one line when they are small.
#pragma once
#include <doctest/doctest.h>
#include "common/xtensor_compat.hpp"

#include <sstream>
#include <string>

namespace support {

struct AllcloseResult {
    bool ok = false;
    std::string report;   // empty when ok
};

// |actual - expected| <= atol + rtol * |expected| everywhere, shapes equal, no NaN.
AllcloseResult allclose(const xt::xarray<double>& actual, const xt::xarray<double>& expected, double rtol,
                        double atol);

template <class A, class E>
AllcloseResult allclose_any(const A& actual, const E& expected, double rtol, double atol) {
    const xt::xarray<double> a = xt::cast<double>(actual);
    const xt::xarray<double> e = xt::cast<double>(expected);
    return allclose(a, e, rtol, atol);
}

}  // namespace support

#define CHECK_ALLCLOSE(actual, expected, rtol, atol)                                               \
    do {                                                                                           \
        const ::support::AllcloseResult allclose_result_ =                                         \
            ::support::allclose_any((actual), (expected), (rtol), (atol));                         \
        CHECK_MESSAGE(allclose_result_.ok, "CHECK_ALLCLOSE(" #actual ", " #expected ")\n"            \
                                               << allclose_result_.report);                        \
    } while (false)
