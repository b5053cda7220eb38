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
    // TODO(01.1): compute the hidden-side blocks h W_hh^T + b_hh with one matmul, split both it and
    //            x_gates into r, z, n blocks of width H, then apply (1.2)-(1.5) in order.
    //            Hint: ./course hint 01.1
    COURSE_TODO("01.1");
}

// ---- instantiations: do not edit ----
template Var<float> gru_cell(const Var<float>&, const Var<float>&, const GruLayer<float>&);
template Var<double> gru_cell(const Var<double>&, const Var<double>&, const GruLayer<double>&);

}  // namespace attn::ch01
