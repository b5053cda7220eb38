// The GRU's weights, laid out exactly as torch.nn.GRU stores them, so that a PyTorch
// state_dict and this course's checkpoints name and shape them the same way.
#pragma once
#include "common/nn/module.hpp"
#include "common/random.hpp"
#include "common/tensor.hpp"

namespace attn::ch01 {

// weight_ih (3H, in), weight_hh (3H, H), bias_ih (3H), bias_hh (3H), registered as
// weight_ih_l0, ... like a one-layer torch.nn.GRU; the three row blocks are the reset gate
// r, the update gate z and the candidate n, in that order.
template <class T>
class GruLayer : public Module<T> {
public:
    GruLayer(std::size_t input_size, std::size_t hidden_size, Rng& rng);

    // x W_ih^T + b_ih for any number of steps at once: (..., in) -> (..., 3H). It does not
    // depend on the hidden state, so an encoder computes it for the whole sequence in one
    // matrix product before its loop.                                                 (1.1)
    Var<T> project_inputs(const Var<T>& x) const;

    std::size_t input_size, hidden_size;
    Var<T> weight_ih, weight_hh, bias_ih, bias_hh;
};

// Throws std::invalid_argument unless x_gates is (batch, 3H) and h is (batch, H).
template <class T>
void check_gru_cell_shapes(const Var<T>& x_gates, const Var<T>& h, const GruLayer<T>& layer);

// Throws std::invalid_argument unless X is (batch, seq_len, in) with in = the layer's input
// size, and valid_lens is (batch) with every length in [1, seq_len].
template <class T>
void check_encoder_shapes(const Var<T>& X, const IndexVector& valid_lens, const GruLayer<T>& layer);

// The (batch, 1) column that is 1 for the sequences still being read at step t
// (t < valid_lens[b]) and 0 for those already finished.
template <class T>
Array<T> reading_mask(const IndexVector& valid_lens, std::size_t t);

}  // namespace attn::ch01
