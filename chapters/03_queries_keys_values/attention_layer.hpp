// The parameters of the generic attention layer: three projections without bias, W_q and
// W_k into a shared space of size d_k where queries and keys are compared, W_v into the
// space of size d_v that the output lives in. Chapter 04 feeds it one set as queries, keys
// and values at once (self-attention).
#pragma once
#include "chapters/03_queries_keys_values/attention.hpp"
#include "common/nn/layers.hpp"

namespace attn::ch03 {

struct AttentionSizes {
    std::size_t query_size, key_size, value_size;   // features of the inputs
    std::size_t d_k, d_v;                           // of the projected queries/keys and values
};

template <class T>
class AttentionLayer : public Module<T> {
public:
    AttentionLayer(const AttentionSizes& sizes, Rng& rng);

    Linear<T> W_q, W_k, W_v;   // weights (d_k, query_size), (d_k, key_size), (d_v, value_size)
};

}  // namespace attn::ch03
