// What every attention function of this chapter shares: the boolean mask that says which
// keys a query may not look at, and the pair {output, weights} an attention returns.
// Introduced in chapter 03; chapters 04-07 build their masks from these.
#pragma once
#include "common/autodiff/var.hpp"

#include "common/xtensor_compat.hpp"

#include <cstdint>

namespace attn::ch03 {

// blocked[b, i, j] == true: query i of batch entry b may not look at key j. The same
// convention as PyTorch's nn.MultiheadAttention (true = masked out), so masks combine with
// a logical OR. Shape (batch, n_q, n_k); a mask with no entries blocks nothing.
using Mask = xt::xarray<bool>;

// "Nothing is blocked". (A default xt::xarray<bool> is a 0-d array with one entry, so it
// cannot play this role.)
inline Mask no_mask() { return Mask::from_shape({0}); }
inline bool is_empty(const Mask& mask) { return mask.size() == 0; }

// The union of two masks of the same shape: a key blocked by either stays blocked.
Mask either(const Mask& a, const Mask& b);

// What attention returns: the pooled values and the weights it used, for the heatmaps.
template <class T>
struct Attention {
    Var<T> output;    // (batch, n_q, d_v), or (n_q) for the kernel regression of 03.1
    Var<T> weights;   // (batch, n_q, n_k), or (n_q, n_k): each row sums to 1 over the allowed keys
};

// Throws std::invalid_argument, naming `who` and the shapes, unless queries (batch, n_q, d),
// keys (batch, n_k, d) and values (batch, n_k, d_v) fit, and the mask is empty or
// (batch, n_q, n_k).
template <class T>
void check_attention_shapes(const char* who, const Var<T>& queries, const Var<T>& keys, const Var<T>& values,
                            const Mask& blocked);

// Throws std::invalid_argument, naming `who`, unless valid_lens is (batch) or (batch, n_q)
// and every length is in [0, n_k].
void check_lengths(const char* who, const xt::xarray<std::int64_t>& valid_lens, std::size_t n_q, std::size_t n_k);

// A very negative number added to the score of a blocked key: exp() of it is exactly 0 in
// float and double, and unlike -infinity it keeps a fully blocked row free of NaN.
constexpr double blocked_score = -1e9;

}  // namespace attn::ch03
