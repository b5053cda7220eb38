// Exercise 04.1: self-attention in matrix form, equations (4.1)-(4.3).
#pragma once
#include "chapters/03_queries_keys_values/attention_layer.hpp"

#include <cstdint>

namespace attn::ch04 {

// One set of vectors X attends to itself: every row of X is at once a query, a key and a
// value. With the row-vector convention (rows are positions, as in PyTorch):
//   Q = X W_q^T,  K = X W_k^T,  V = X W_v^T                                            (4.1)
//   A = softmax(Q K^T / sqrt(d_k)) over the valid keys of each row                     (4.2)
//   O = A V                                                                            (4.3)
// X (batch, n, d_model), the layer built with query_size = key_size = value_size = d_model,
// valid_lens (batch): positions j >= valid_lens[b] are padding and no query looks at them
// (weight exactly 0). A padded query row is computed like the others (it looks at the
// valid keys); the caller ignores it.
// -> {output O (batch, n, d_v), weights A (batch, n, n)}. Throws std::invalid_argument if
// the shapes do not fit or a length is outside [0, n].
template <class T>
ch03::Attention<T> self_attention(const ch03::AttentionLayer<T>& layer, const Var<T>& X,
                                  const xt::xarray<std::int64_t>& valid_lens);

// valid_lens for a batch without padding: every one of the n positions is valid.
inline xt::xarray<std::int64_t> full_lengths(std::size_t batch, std::size_t n) {
    return xt::xarray<std::int64_t>(std::vector<std::size_t>{batch}, static_cast<std::int64_t>(n));
}

}  // namespace attn::ch04
