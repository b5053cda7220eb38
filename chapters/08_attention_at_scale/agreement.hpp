// How close the tiled computations of parts 2 and 3 come to chapter 03's attention, which holds
// the whole n x n matrix, and grouped-query attention with G = H to chapter 05's multi-head
// attention (part 5): the same inputs and masks through both, the largest difference.
#pragma once
#include "chapters/03_queries_keys_values/attention.hpp"
#include "chapters/08_attention_at_scale/tiles.hpp"
#include "common/random.hpp"

namespace attn::ch08 {

// The keys `mask` describes, as chapter 03's boolean mask (batch, n_q, n_k): its causal_mask,
// its length_mask, or both joined with either(); no_mask() when nothing is blocked.
ch03::Mask as_chapter03_mask(const KeyMask& mask, std::size_t batch, std::size_t n_q, std::size_t n_k);

// max |O_tiled - O_chapter03| over every entry, float64.
double forward_difference(const Tensor3<double>& Q, const Tensor3<double>& K, const Tensor3<double>& V,
                          const KeyMask& mask, const Blocks& blocks);

// The gradients of sum(O * dO) by the tiled backward pass (08.3) against the autodiff's through
// chapter 03's composition: attn::max_relative_error of each, float64.
struct GradientAgreement {
    double dQ, dK, dV;
};
GradientAgreement gradient_difference(const Tensor3<double>& Q, const Tensor3<double>& K, const Tensor3<double>& V,
                                      const Tensor3<double>& dO, const KeyMask& mask, const Blocks& blocks);

// Part 5: exercise 08.4 with G = H against chapter 05's multi_head_attention, the weights
// copied (copy_multi_head), random biases, both masks (a padded key, causal): the largest
// difference of the output and of the head weights, float64.
double multi_head_difference(Rng& rng);

// Random N(0, 1) entries (batch, n, d) from `rng`.
Tensor3<double> random_tensor(std::size_t batch, std::size_t n, std::size_t d, Rng& rng);

}  // namespace attn::ch08
