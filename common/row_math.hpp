// Fast loops over one contiguous row of numbers: the inner loops of softmax-like code
// (chapter 00's softmax and its backward) and the element-wise maps of the autodiff ops,
// where an xtensor expression would run one scalar exp at a time, or 4 floats at once at
// best. Each float loop is compiled for AVX-512, AVX2 and plain x86-64 and picks the best one
// for the CPU at run time (common/simd_clones.hpp), so the course's binaries stay portable
// without -march=native. `x` and `y` point to `n` numbers; `y` may be `x` (in place).
#pragma once
#include <cstddef>

namespace attn::row_math {

float max(const float* x, std::size_t n);       // max_j x[j]   (n >= 1)
double max(const double* x, std::size_t n);
float sum(const float* x, std::size_t n);       // sum_j x[j]
double sum(const double* x, std::size_t n);
float dot(const float* x, const float* y, std::size_t n);   // sum_j x[j] y[j]
double dot(const double* x, const double* y, std::size_t n);

// y[j] = exp(x[j] - shift), for exponents x[j] - shift <= 0 as after subtracting a row's
// maximum. The float version is a polynomial (within 2 units in the last place of std::exp
// on [-87, 0]; exponents below about -87.3, where exp underflows, give exactly 0).
void exp_minus(const float* x, float shift, float* y, std::size_t n);
void exp_minus(const double* x, double shift, double* y, std::size_t n);

// The element-wise functions of the autodiff ops exp, sigmoid and tanh, over the whole
// float range: within a few units in the last place of std::exp and std::tanh (the tests
// say how many), overflow to inf and underflow to 0 as std::exp does, NaN in, NaN out.
// The double versions call the standard library, for gradient checks that want every digit.
void exp(const float* x, float* y, std::size_t n);
void exp(const double* x, double* y, std::size_t n);
void sigmoid(const float* x, float* y, std::size_t n);    // 1 / (1 + exp(-x))
void sigmoid(const double* x, double* y, std::size_t n);
void tanh(const float* x, float* y, std::size_t n);
void tanh(const double* x, double* y, std::size_t n);

void scale(float* y, float factor, std::size_t n);     // y[j] *= factor
void scale(double* y, double factor, std::size_t n);

}  // namespace attn::row_math
