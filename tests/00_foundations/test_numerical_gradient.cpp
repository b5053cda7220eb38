// Self-checks for exercise 00.3: numerical_gradient (exercises/00_foundations/numerical_gradient.cpp).
#include "chapters/00_foundations/numerical_gradient.hpp"
#include "common/random.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/property.hpp"

#include <cmath>
#include <string>

using attn::Matrix;
using attn::ch00::ScalarFunction;

namespace {

// f(X) = sum sin(X)  has the gradient cos(X), known exactly.
double sum_of_sines(const Matrix<double>& X) {
    const double total = xt::sum(xt::sin(X))();
    return total;
}

double error_against_cosine(const Matrix<double>& X, double h) {
    const Matrix<double> numeric = attn::ch00::numerical_gradient<double>(sum_of_sines, X, h);
    const double worst = xt::amax(xt::abs(numeric - xt::cos(X)))();
    return worst;
}

}  // namespace

TEST_CASE("00.3 numerical_gradient" * doctest::test_suite("ch00")) {
    // The hand-worked properties first, each named after the mistake that breaks it
    // (tests/mutants/00_foundations/numerical_gradient.*).
    attn::Rng rng(3);
    const Matrix<double> X = rng.normal_matrix<double>(3, 4);

    PROPERTY("it puts each entry back: every call of f sees X with at most one entry moved, by h") {
        std::string first_wrong_call;   // empty while every call is right
        int calls = 0;
        const ScalarFunction<double> watcher = [&](const Matrix<double>& x) {
            ++calls;
            const Matrix<double> moved = xt::abs(x - X);
            const std::size_t changed = xt::sum(moved > 0.0)();
            const double largest = xt::amax(moved)();
            const bool right = changed <= 1 && std::abs(largest - (changed ? 0.25 : 0.0)) < 1e-12;
            if (!right && first_wrong_call.empty())
                first_wrong_call = "call " + std::to_string(calls) + " of f saw " + std::to_string(changed) +
                                   " entries of X moved, the largest by " + std::to_string(largest) + " (h = 0.25)";
            return 0.0;
        };
        (void)attn::ch00::numerical_gradient(watcher, X, 0.25);
        CHECK_MESSAGE(first_wrong_call.empty(), first_wrong_call);
    };
    PROPERTY("the difference spans 2h, so it is divided by 2h: f(x, y) = 3x + xy at (2, 5) gives (8, 2)") {
        // df/dx = 3 + y = 8, df/dy = x = 2; f is linear in each entry, so differences are exact.
        const ScalarFunction<double> f = [](const Matrix<double>& x) { return 3 * x(0, 0) + x(0, 0) * x(0, 1); };
        CHECK_ALLCLOSE(attn::ch00::numerical_gradient<double>(f, {{2.0, 5.0}}, 1e-3), Matrix<double>({{8.0, 2.0}}),
                       1e-9, 1e-9);
    };
    PROPERTY("the error shrinks like h^2: central differences, not one-sided") {
        // Ten times smaller h: about 100 times smaller error for central differences,
        // only 10 times for the one-sided (f(x + h) - f(x)) / h.
        const double coarse = error_against_cosine(X, 1e-2);
        const double fine = error_against_cosine(X, 1e-3);
        INFO("error at h = 1e-2: " << coarse << ", at h = 1e-3: " << fine);
        CHECK(coarse / fine > 50.0);
    };
    PROPERTY("the gradient of sum(sin X) is cos X") {
        // Central differences: error about h^2 / 6 * |sin'''| <= 2e-11 at h = 1e-5.
        const Matrix<double> grad = attn::ch00::numerical_gradient<double>(sum_of_sines, X, 1e-5);
        REQUIRE_SHAPE(grad.shape(), {3, 4});
        CHECK_ALLCLOSE(grad, xt::cos(X), 0.0, 1e-9);
    };
    PROPERTY("the gradient of (sum X)^2 is 2 sum(X) in every entry") {
        // Every entry sees the same function of the total, so the same slope everywhere.
        const ScalarFunction<double> squared_total = [](const Matrix<double>& x) {
            const double total = xt::sum(x)();
            return total * total;
        };
        const double total = xt::sum(X)();
        const Matrix<double> expected = xt::ones<double>({3, 4}) * (2.0 * total);
        CHECK_ALLCLOSE(attn::ch00::numerical_gradient(squared_total, X, 1e-5), expected, 1e-8, 1e-8);
    };
    PROPERTY("a step h that is not positive is refused") {
        CHECK_THROWS_AS(attn::ch00::numerical_gradient<double>(sum_of_sines, X, 0.0), std::invalid_argument);
    };
}
