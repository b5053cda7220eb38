// The grouped-query attention layer's parameters (see grouped_query_layer.hpp).
#include "chapters/08_attention_at_scale/grouped_query_layer.hpp"

#include <stdexcept>
#include <string>

namespace attn::ch08 {

namespace {
// d_model, checked before the first projection is built with it.
std::size_t checked_d_model(std::size_t d_model, std::size_t heads, std::size_t kv_heads) {
    if (d_model == 0 || heads == 0 || kv_heads == 0 || d_model % heads != 0 || heads % kv_heads != 0)
        throw std::invalid_argument("GroupedQueryAttention: d_model " + std::to_string(d_model) + ", heads " +
                                    std::to_string(heads) + ", kv_heads " + std::to_string(kv_heads) +
                                    ": d_model must be a positive multiple of heads, and kv_heads a positive divisor of heads");
    return d_model;
}
}  // namespace

template <class T>
GroupedQueryAttention<T>::GroupedQueryAttention(std::size_t d_model, std::size_t heads, std::size_t kv_heads, Rng& rng)
    : q_proj(checked_d_model(d_model, heads, kv_heads), d_model, rng),
      // The keys and values have G heads of d_h: G d_h = d G / H features, fewer than d when G < H.
      k_proj(d_model, kv_heads * (d_model / heads), rng),
      v_proj(d_model, kv_heads * (d_model / heads), rng),
      o_proj(d_model, d_model, rng),
      d_model_(d_model),
      heads_(heads),
      kv_heads_(kv_heads) {
    this->register_module("q_proj", q_proj);
    this->register_module("k_proj", k_proj);
    this->register_module("v_proj", v_proj);
    this->register_module("o_proj", o_proj);
}

template <class T>
void check_grouped_query_inputs(const char* who, const GroupedQueryAttention<T>& layer, const Var<T>& query,
                                const Var<T>& key, const Var<T>& value) {
    const std::size_t d = layer.d_model();
    const bool fits = query.dim() == 3 && key.dim() == 3 && value.dim() == 3 && query.shape(2) == d &&
                      key.shape(2) == d && value.shape(2) == d && key.shape(0) == query.shape(0) &&
                      value.shape(0) == query.shape(0) && value.shape(1) == key.shape(1);
    if (!fits)
        throw std::invalid_argument(std::string(who) + ": query " + shape_string(query.shape()) + ", key " +
                                    shape_string(key.shape()) + ", value " + shape_string(value.shape()) +
                                    " must be (batch, n_q, d), (batch, n_k, d), (batch, n_k, d) with d = d_model = " +
                                    std::to_string(d));
}

template class GroupedQueryAttention<float>;
template class GroupedQueryAttention<double>;
template void check_grouped_query_inputs(const char*, const GroupedQueryAttention<float>&, const Var<float>&,
                                         const Var<float>&, const Var<float>&);
template void check_grouped_query_inputs(const char*, const GroupedQueryAttention<double>&, const Var<double>&,
                                         const Var<double>&, const Var<double>&);

}  // namespace attn::ch08
