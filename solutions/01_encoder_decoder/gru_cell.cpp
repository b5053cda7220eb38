// Exercise 01.1: one step of a GRU, equations (1.1)-(1.5).
#include "chapters/01_encoder_decoder/gru_cell.hpp"

#include "common/autodiff/ops.hpp"

namespace attn::ch01 {

// r = sigmoid(x_r + g_r), z = sigmoid(x_z + g_z), n = tanh(x_n + r * g_n),
// h' = (1 - z) * n + z * h, with [g_r, g_z, g_n] = h W_hh^T + b_hh          (1.2)-(1.5)
// x_gates: (batch, 3H), h: (batch, H) -> h': (batch, H)
template <class T>
Var<T> gru_cell(const Var<T>& x_gates, const Var<T>& h, const GruLayer<T>& layer) {
    check_gru_cell_shapes(x_gates, h, layer);
    const std::size_t H = layer.hidden_size;
    // One matrix product gives all three hidden-side blocks; splitting it is free compared
    // with three products (the same reason x_gates arrives already projected).
    const Var<T> h_gates = matmul(h, layer.weight_hh, false, true) + layer.bias_hh;   // (batch, 3H)
    const std::vector<Var<T>> x = split(x_gates, {H, H, H}, 1);    // x_r, x_z, x_n: (batch, H) each
    const std::vector<Var<T>> g = split(h_gates, {H, H, H}, 1);    // g_r, g_z, g_n
    const Var<T> r = sigmoid(x[0] + g[0]);                         // (1.2) how much of h the candidate sees
    const Var<T> z = sigmoid(x[1] + g[1]);                         // (1.3) how much of h survives
    const Var<T> n = tanh(x[2] + r * g[2]);                        // (1.4) r scales W_hn h + b_hn, as in PyTorch
    return (1 - z) * n + z * h;                                    // (1.5)
    // The textbook GRU (Cho et al. 2014) applies r before the product, tanh(W x + U (r * h));
    // PyTorch's form, used here, lets one product W_hh h serve all three gates.
}

// ---- instantiations: do not edit ----
template Var<float> gru_cell(const Var<float>&, const Var<float>&, const GruLayer<float>&);
template Var<double> gru_cell(const Var<double>&, const Var<double>&, const GruLayer<double>&);

}  // namespace attn::ch01
