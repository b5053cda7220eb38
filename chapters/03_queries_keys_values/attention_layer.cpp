// The attention layer's parameters (see attention_layer.hpp).
#include "chapters/03_queries_keys_values/attention_layer.hpp"

namespace attn::ch03 {

template <class T>
AttentionLayer<T>::AttentionLayer(const AttentionSizes& sizes, Rng& rng)
    : W_q(sizes.query_size, sizes.d_k, rng, false),
      W_k(sizes.key_size, sizes.d_k, rng, false),
      W_v(sizes.value_size, sizes.d_v, rng, false) {
    this->register_module("W_q", W_q);
    this->register_module("W_k", W_k);
    this->register_module("W_v", W_v);
}

template class AttentionLayer<float>;
template class AttentionLayer<double>;

}  // namespace attn::ch03
