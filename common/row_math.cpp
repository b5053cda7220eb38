// The row loops (see row_math.hpp). Written so that GCC vectorizes them: no calls and no
// branches inside the loops, and reductions kept in `lanes` separate partial results
// (adding floats in a different order is something the compiler may not do on its own).
#include "common/row_math.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace attn::row_math {

namespace {
constexpr std::size_t lanes = 16;   // one AVX-512 register of floats
}

#define COURSE_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))

COURSE_CLONES float max(const float* x, std::size_t n) {
    float partial[lanes];
    for (float& p : partial) p = x[0];
    std::size_t j = 0;
    for (; j + lanes <= n; j += lanes)
        for (std::size_t l = 0; l < lanes; ++l) partial[l] = x[j + l] > partial[l] ? x[j + l] : partial[l];
    float m = x[0];
    for (; j < n; ++j) m = x[j] > m ? x[j] : m;
    for (const float p : partial) m = p > m ? p : m;
    return m;
}

COURSE_CLONES float sum(const float* x, std::size_t n) {
    float partial[lanes] = {};
    std::size_t j = 0;
    for (; j + lanes <= n; j += lanes)
        for (std::size_t l = 0; l < lanes; ++l) partial[l] += x[j + l];
    float s = 0;
    for (; j < n; ++j) s += x[j];
    for (const float p : partial) s += p;
    return s;
}

COURSE_CLONES float dot(const float* x, const float* y, std::size_t n) {
    float partial[lanes] = {};
    std::size_t j = 0;
    for (; j + lanes <= n; j += lanes)
        for (std::size_t l = 0; l < lanes; ++l) partial[l] += x[j + l] * y[j + l];
    float s = 0;
    for (; j < n; ++j) s += x[j] * y[j];
    for (const float p : partial) s += p;
    return s;
}

// exp(t) = 2^k exp(r) with k = round(t / ln 2) and r = t - k ln 2 in [-ln 2 / 2, ln 2 / 2]:
// 2^k is built directly in the float's exponent bits, exp(r) is a degree-7 polynomial (the
// Cephes library's coefficients). ln 2 is split in two parts so that k ln 2 is exact enough.
COURSE_CLONES void exp_minus(const float* x, float shift, float* y, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) {
        const float exponent = x[j] - shift;
        // Clamped to where 2^k is a normal float; a NaN lands on -87 here and is restored below.
        const float t = exponent >= -87.0f ? (exponent <= 88.0f ? exponent : 88.0f) : -87.0f;
        const float k = (t * 1.44269504f + 12582912.0f) - 12582912.0f;   // round(t / ln 2): 1.5 * 2^23 trick
        const float r = t - k * 0.693359375f + k * 2.12194440e-4f;
        float p = 1.9875691500e-4f;
        p = p * r + 1.3981999507e-3f;
        p = p * r + 8.3334519073e-3f;
        p = p * r + 4.1665795894e-2f;
        p = p * r + 1.6666665459e-1f;
        p = p * r + 5.0000001201e-1f;
        p = p * r * r + r + 1.0f;
        const std::uint32_t bits = static_cast<std::uint32_t>(static_cast<std::int32_t>(k) + 127) << 23;   // 2^k
        float two_to_k;
        std::memcpy(&two_to_k, &bits, sizeof two_to_k);
        const float value = exponent < -87.3f ? 0.0f : p * two_to_k;
        y[j] = exponent != exponent ? exponent : value;   // NaN in, NaN out
    }
}

COURSE_CLONES void scale(float* y, float factor, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) y[j] *= factor;
}

// Doubles serve tests and gradient checks, where exactness matters more than speed.
double max(const double* x, std::size_t n) {
    double m = x[0];
    for (std::size_t j = 1; j < n; ++j) m = x[j] > m ? x[j] : m;
    return m;
}
double sum(const double* x, std::size_t n) {
    double s = 0;
    for (std::size_t j = 0; j < n; ++j) s += x[j];
    return s;
}
double dot(const double* x, const double* y, std::size_t n) {
    double s = 0;
    for (std::size_t j = 0; j < n; ++j) s += x[j] * y[j];
    return s;
}
void exp_minus(const double* x, double shift, double* y, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) y[j] = std::exp(x[j] - shift);
}
void scale(double* y, double factor, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) y[j] *= factor;
}

}  // namespace attn::row_math
