// The parameters of additive attention: W_q, W_k (no bias) and w_v, named and shaped as the
// d2l AdditiveAttention module's. The keys are projected once per source sentence.
#pragma once
#include "common/nn/layers.hpp"

#include <cstdint>

namespace attn::ch02 {

template <class T>
class AdditiveAttention : public Module<T> {
public:
    // queries of size query_size, keys of size key_size, scored in a hidden space of size `hidden`
    AdditiveAttention(std::size_t query_size, std::size_t key_size, std::size_t hidden, Rng& rng);

    // k_j = W_k h_j for every key at once: (batch, n_k, key_size) -> (batch, n_k, hidden).
    // It does not change while the decoder runs, so it is computed once per sentence.   (2.1)
    Var<T> project_keys(const Var<T>& keys) const;

    Linear<T> W_q, W_k;   // (hidden, query_size), (hidden, key_size)
    Linear<T> w_v;        // (1, hidden): scores a tanh feature vector
};

// Throw std::invalid_argument, naming the function and the shapes, unless
// queries_proj (batch, n_q, h), keys_proj (batch, n_k, h) and w_v (1, h) fit together ...
template <class T>
void check_score_shapes(const Var<T>& queries_proj, const Var<T>& keys_proj, const Var<T>& w_v);
// ... or unless scores are (batch, n_q, n_k) and valid_lens (batch) or (batch, n_q) with
// every length in [0, n_k].
template <class T>
void check_mask_shapes(const Var<T>& scores, const xt::xarray<std::int64_t>& valid_lens);

}  // namespace attn::ch02
