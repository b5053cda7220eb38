// Seeded random numbers. Every random choice in the course comes from an explicit Rng, so a
// run is reproducible from its --seed, on any compiler and standard library (std::
// distributions differ between libraries; these are written out). Introduced in chapter 00.
#pragma once
#include "common/tensor.hpp"

#include <cstdint>
#include <vector>

namespace attn {

class Rng {
public:
    explicit Rng(std::uint64_t seed);

    std::uint64_t next_u64();                      // 64 random bits (splitmix64)
    double uniform();                              // in [0, 1)
    double uniform(double lo, double hi);          // in [lo, hi)
    double normal(double mean = 0.0, double stddev = 1.0);   // Box-Muller
    std::size_t below(std::size_t n);              // uniform integer in [0, n), n > 0
    std::vector<std::size_t> permutation(std::size_t n);     // a shuffled 0..n-1

    // A (rows, cols) matrix of independent N(0, stddev^2) values.
    template <class T> Matrix<T> normal_matrix(std::size_t rows, std::size_t cols, double stddev = 1.0);

private:
    std::uint64_t state_;
    bool has_spare_ = false;   // Box-Muller makes normals in pairs; the second waits here
    double spare_ = 0.0;
};

}  // namespace attn
