// Seeded random numbers (see random.hpp). Introduced in chapter 00.
#include "common/random.hpp"

#include <cmath>
#include <stdexcept>

namespace attn {

Rng::Rng(std::uint64_t seed) : state_(seed) {}

// splitmix64: tiny, fast, and good enough for data generation and initialisation.
std::uint64_t Rng::next_u64() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double Rng::uniform() {
    return static_cast<double>(next_u64() >> 11) * 0x1.0p-53;   // 53 random mantissa bits
}

double Rng::uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

double Rng::normal(double mean, double stddev) {
    if (has_spare_) {
        has_spare_ = false;
        return mean + stddev * spare_;
    }
    const double u1 = 1.0 - uniform();   // in (0, 1], so log() stays finite
    const double u2 = uniform();
    const double radius = std::sqrt(-2.0 * std::log(u1));
    const double angle = 2.0 * M_PI * u2;
    spare_ = radius * std::sin(angle);
    has_spare_ = true;
    return mean + stddev * radius * std::cos(angle);
}

std::size_t Rng::below(std::size_t n) {
    if (n == 0) throw std::invalid_argument("Rng::below: n must be positive");
    return static_cast<std::size_t>(uniform() * static_cast<double>(n)) % n;
}

std::vector<std::size_t> Rng::permutation(std::size_t n) {
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[below(i)]);   // Fisher-Yates
    return order;
}

template <class T>
Matrix<T> Rng::normal_matrix(std::size_t rows, std::size_t cols, double stddev) {
    Matrix<T> values = xt::zeros<T>({rows, cols});
    for (T& v : values) v = static_cast<T>(normal(0.0, stddev));
    return values;
}

// ---- instantiations: do not edit ----
template Matrix<float> Rng::normal_matrix<float>(std::size_t, std::size_t, double);
template Matrix<double> Rng::normal_matrix<double>(std::size_t, std::size_t, double);

}  // namespace attn
