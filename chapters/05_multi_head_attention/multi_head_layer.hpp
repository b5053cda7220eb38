// The parameters of multi-head attention, named and laid out as torch.nn.MultiheadAttention
// (batch_first=True), so a state_dict carries over name for name:
//   in_proj_weight (3d, d)  the rows of W_q, then W_k, then W_v, each (d, d)
//   in_proj_bias   (3d)     b_q, b_k, b_v
//   out_proj.weight (d, d), out_proj.bias (d)   W_o and b_o
// Head h uses rows [h d_h, (h + 1) d_h) of W_q, W_k and W_v (d_h = d / heads): one (d, d)
// product projects all the heads at once, and the split (5.1) hands each its block.
#pragma once
#include "chapters/03_queries_keys_values/attention.hpp"
#include "common/nn/layers.hpp"

namespace attn::ch05 {

template <class T>
class MultiHeadAttention : public Module<T> {
public:
    // Initialised as PyTorch does: in_proj_weight Xavier-uniform, both biases zero, out_proj
    // weight like a Linear layer's. Throws std::invalid_argument if d_model is not a
    // positive multiple of heads.
    MultiHeadAttention(std::size_t d_model, std::size_t heads, Rng& rng);

    std::size_t d_model() const { return d_model_; }
    std::size_t heads() const { return heads_; }
    std::size_t head_size() const { return d_model_ / heads_; }   // d_h

    Var<T> in_proj_weight, in_proj_bias;
    Linear<T> out_proj;

private:
    std::size_t d_model_, heads_;
};

// What the multi-head forward returns.
template <class T>
struct MultiHeadOutput {
    Var<T> output;              // (batch, n_q, d)
    Var<T> head_weights;        // (batch, heads, n_q, n_k): each head's attention weights
    Var<T> averaged_weights;    // (batch, n_q, n_k): their mean over the heads (PyTorch's default)
};

}  // namespace attn::ch05
