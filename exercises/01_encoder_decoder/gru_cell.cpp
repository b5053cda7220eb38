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
    // TODO(01.1): return h' of (1.5), (batch, H), with the gates and candidate of (1.2)-(1.4);
    //             x_gates already holds this step's input side x W_ih^T + b_ih, in blocks
    //             r, z, n. Build it from Var operations so that it has a gradient.
    //             Stuck? ./course hint 01.1
    COURSE_TODO("01.1");
}

// ---- instantiations: do not edit ----
template Var<float> gru_cell(const Var<float>&, const Var<float>&, const GruLayer<float>&);
template Var<double> gru_cell(const Var<double>&, const Var<double>&, const GruLayer<double>&);

}  // namespace attn::ch01
