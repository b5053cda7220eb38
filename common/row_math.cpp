// The row loops (see row_math.hpp). Written so that GCC vectorizes them: no calls and no
// branches inside the loops, and reductions kept in `lanes` separate partial results
// (adding floats in a different order is something the compiler may not do on its own).
#include "common/row_math.hpp"
#include "common/simd_clones.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace attn::row_math {

namespace {
constexpr std::size_t lanes = 16;   // one AVX-512 register of floats
}

COURSE_SIMD_CLONES float max(const float* x, std::size_t n) {
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

COURSE_SIMD_CLONES float sum(const float* x, std::size_t n) {
    float partial[lanes] = {};
    std::size_t j = 0;
    for (; j + lanes <= n; j += lanes)
        for (std::size_t l = 0; l < lanes; ++l) partial[l] += x[j + l];
    float s = 0;
    for (; j < n; ++j) s += x[j];
    for (const float p : partial) s += p;
    return s;
}

COURSE_SIMD_CLONES float dot(const float* x, const float* y, std::size_t n) {
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
// exp(r) is a degree-7 polynomial (the Cephes library's coefficients), and ln 2 is split in
// two parts so that k ln 2 is exact enough. Returns exp(r) and k; the callers build 2^k.
// Inline, so that it is compiled into each clone of the loops that call it.
inline float exp_of_remainder(float t, float& k) {
    k = (t * 1.44269504f + 12582912.0f) - 12582912.0f;   // round(t / ln 2): the 1.5 * 2^23 trick
    const float r = t - k * 0.693359375f + k * 2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    return p * r * r + r + 1.0f;
}

inline float power_of_two(std::int32_t k) {   // 2^k for k in [-126, 127], written into the exponent bits
    const std::uint32_t bits = static_cast<std::uint32_t>(k + 127) << 23;
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

// exp(t) over the whole float range, for t clamped to [-104, 89] by the caller: 2^k is applied
// as two halves that each stay a normal float, so that the product overflows to inf and
// underflows to 0 (or a subnormal) as std::exp does.
inline float exp_clamped(float t) {
    float k;
    const float p = exp_of_remainder(t, k);
    const std::int32_t whole = static_cast<std::int32_t>(k), half = whole / 2;
    return p * power_of_two(half) * power_of_two(whole - half);
}

inline float clamp_exponent(float t) { return t >= -104.0f ? (t <= 89.0f ? t : 89.0f) : -104.0f; }

// Inlined into each clone of exp_minus (always: with FMA in one and not the other, the two
// copies would round differently).
[[gnu::always_inline]] inline void exp_minus_loop(const float* x, float shift, float* y, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) {
        const float exponent = x[j] - shift;
        // Clamped to where 2^k is a normal float; a NaN lands on -87 here and is restored below.
        const float t = exponent >= -87.0f ? (exponent <= 88.0f ? exponent : 88.0f) : -87.0f;
        float k;
        const float p = exp_of_remainder(t, k);
        const float value = exponent < -87.3f ? 0.0f : p * power_of_two(static_cast<std::int32_t>(k));
        y[j] = exponent != exponent ? exponent : value;   // NaN in, NaN out
    }
}

// The loop runs whole vectors; the last n % 16 entries would run one at a time, and on
// chapter 07's rows of 24 scores that tail cost more than the rest of the row. So with
// 16-float vectors (AVX-512) and a row at least that long, they come from one more vector,
// the row's last 16 entries, into a scratch block: each entry gets the same operations either
// way, so the same value. In place, the block's first entries read values the loop has already
// overwritten; those lanes are thrown away.
COURSE_SIMD_CLONES void exp_minus(const float* x, float shift, float* y, std::size_t n) {
    const std::size_t whole = n - n % lanes;
    exp_minus_loop(x, shift, y, whole);
    if (whole == n) return;
    if (n >= lanes && simd_clones_run_avx512()) {
        float block[lanes];
        exp_minus_loop(x + n - lanes, shift, block, lanes);
        for (std::size_t j = whole; j < n; ++j) y[j] = block[j - (n - lanes)];
    } else {
        exp_minus_loop(x + whole, shift, y + whole, n - whole);
    }
}

COURSE_SIMD_CLONES void exp(const float* x, float* y, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) {
        const float v = x[j];
        const float value = exp_clamped(clamp_exponent(v));
        y[j] = v != v ? v : value;   // a NaN was clamped above; it comes back out as NaN
    }
}

// sigmoid(x) = 1 / (1 + exp(-x)); for very negative x, exp(-x) overflows to inf and 1 / inf
// gives the correct 0.
COURSE_SIMD_CLONES void sigmoid(const float* x, float* y, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) {
        const float v = x[j];
        const float value = 1.0f / (1.0f + exp_clamped(clamp_exponent(-v)));
        y[j] = v != v ? v : value;
    }
}

// tanh, as the Cephes library computes it: for |x| >= 0.625, tanh|x| = 1 - 2 / (exp(2|x|) + 1)
// (exp overflows to inf for |x| > 44.5, which gives exactly 1); closer to 0 that difference
// would cancel, so there it is x + x^3 P(x^2), an odd polynomial. Both are computed and one
// is kept, since a branch would stop the loop from vectorizing.
COURSE_SIMD_CLONES void tanh(const float* x, float* y, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) {
        const float v = x[j];
        const float magnitude = v < 0.0f ? -v : v;
        const float far = 1.0f - 2.0f / (exp_clamped(clamp_exponent(2.0f * magnitude)) + 1.0f);
        const float s = v * v;
        const float near = ((((-5.70498872745e-3f * s + 2.06390887954e-2f) * s - 5.37397155531e-2f) * s +
                             1.33314422036e-1f) * s - 3.33332819422e-1f) * s * v + v;
        const float value = magnitude < 0.625f ? near : (v < 0.0f ? -far : far);
        y[j] = v != v ? v : value;
    }
}

COURSE_SIMD_CLONES void scale(float* y, float factor, std::size_t n) {
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
void exp(const double* x, double* y, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) y[j] = std::exp(x[j]);
}
void sigmoid(const double* x, double* y, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) y[j] = 1.0 / (1.0 + std::exp(-x[j]));
}
void tanh(const double* x, double* y, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) y[j] = std::tanh(x[j]);
}
void scale(double* y, double factor, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) y[j] *= factor;
}

}  // namespace attn::row_math
