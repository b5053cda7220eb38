// Exercise 01.1: one step of a GRU, equations (1.1)-(1.5) of the lesson.
#pragma once
#include "chapters/01_encoder_decoder/gru.hpp"

namespace attn::ch01 {

// Given x_gates = x W_ih^T + b_ih (batch, 3H) for this step (see GruLayer::project_inputs)
// and the previous state h (batch, H), returns the next state h' (batch, H):
//   [g_r, g_z, g_n] = h W_hh^T + b_hh                         (split into three (batch, H) blocks)
//   r  = sigmoid(x_r + g_r)                                    reset gate        (1.2)
//   z  = sigmoid(x_z + g_z)                                    update gate       (1.3)
//   n  = tanh(x_n + r * g_n)                                   candidate         (1.4)
//   h' = (1 - z) * n + z * h                                                     (1.5)
// Gate order r, z, n and the placement of r are exactly torch.nn.GRU's. Throws
// std::invalid_argument if the shapes do not fit the layer.
template <class T>
Var<T> gru_cell(const Var<T>& x_gates, const Var<T>& h, const GruLayer<T>& layer);

}  // namespace attn::ch01
