// The parameters of grouped-query attention (Ainslie et al., 2023): H query heads share G
// key/value heads, G dividing H. Four separate projections, named as the common PyTorch
// implementations of the Llama family name them, each a Linear layer with a bias:
//   q_proj (H d_h, d)   k_proj (G d_h, d)   v_proj (G d_h, d)   o_proj (d, H d_h)
// with d_h = d / H. G = H is chapter 05's multi-head attention (the biases make it exactly
// that layer), G = 1 is multi-query attention (Shazeer, 2019).
#pragma once
#include "chapters/03_queries_keys_values/attention.hpp"
#include "common/nn/layers.hpp"

namespace attn::ch08 {

template <class T>
class GroupedQueryAttention : public Module<T> {
public:
    // Each projection starts as a PyTorch Linear layer does. Throws std::invalid_argument,
    // naming the sizes, unless d_model is a positive multiple of heads and kv_heads a
    // positive divisor of heads.
    GroupedQueryAttention(std::size_t d_model, std::size_t heads, std::size_t kv_heads, Rng& rng);

    std::size_t d_model() const { return d_model_; }
    std::size_t heads() const { return heads_; }                     // H, query heads
    std::size_t kv_heads() const { return kv_heads_; }               // G, key/value heads
    std::size_t head_size() const { return d_model_ / heads_; }      // d_h
    std::size_t group_size() const { return heads_ / kv_heads_; }    // H / G query heads per key/value head

    Linear<T> q_proj, k_proj, v_proj, o_proj;

private:
    std::size_t d_model_, heads_, kv_heads_;
};

// What the grouped-query forward returns.
template <class T>
struct GroupedQueryOutput {
    Var<T> output;          // (batch, n_q, d)
    Var<T> head_weights;    // (batch, H, n_q, n_k): each query head's attention weights
};

// Throws std::invalid_argument, naming `who` and the shapes, unless query is (batch, n_q, d),
// key and value (batch, n_k, d), with d the layer's d_model. (The masks are checked where they
// are combined, by chapter 05's combine_masks.)
template <class T>
void check_grouped_query_inputs(const char* who, const GroupedQueryAttention<T>& layer, const Var<T>& query,
                                const Var<T>& key, const Var<T>& value);

}  // namespace attn::ch08
