// Exercise 02.3: additive attention, from queries to a context vector, (2.2)-(2.4).
#pragma once
#include "chapters/02_bahdanau_attention/attention_layer.hpp"

#include <cstdint>

namespace attn::ch02 {

template <class T>
struct AttentionOutput {
    Var<T> context;   // (batch, n_q, value_size)
    Var<T> weights;   // (batch, n_q, n_k): alpha, each row summing to 1 over the valid keys
};

// alpha = masked_softmax(additive_scores(W_q queries, keys_proj, w_v), valid_lens)     (2.3)
// context_i = sum_j alpha[i, j] v_j                                                   (2.4)
// queries (batch, n_q, query_size), keys_proj (batch, n_k, hidden) from project_keys,
// values (batch, n_k, value_size), valid_lens (batch) or (batch, n_q).
template <class T>
AttentionOutput<T> additive_attention(const Var<T>& queries, const Var<T>& keys_proj, const Var<T>& values,
                                      const xt::xarray<std::int64_t>& valid_lens, const AdditiveAttention<T>& layer);

}  // namespace attn::ch02
