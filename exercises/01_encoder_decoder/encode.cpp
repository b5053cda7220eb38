// Exercise 01.2: the encoder loop, equation (1.6).
#include "chapters/01_encoder_decoder/encode.hpp"

#include "chapters/01_encoder_decoder/gru_cell.hpp"
#include "common/autodiff/ops.hpp"

namespace attn::ch01 {

// h_t = gru_cell(x_t W_ih^T + b_ih, h_{t-1}) while t < valid_lens[b], else h_t = h_{t-1}    (1.6)
// X: (batch, seq_len, in) -> states (batch, seq_len, H), final (batch, H)
template <class T>
EncoderOutput<T> encode(const Var<T>& X, const IndexVector& valid_lens, const GruLayer<T>& layer) {
    check_encoder_shapes(X, valid_lens, layer);
    // TODO(01.2): project all inputs once (layer.project_inputs), start from h_0 = 0, and for each
    //            step t run gru_cell on that step's slice; sequences with t >= their length keep
    //            their state (reading_mask). Return the stacked states and the last h (1.6).
    //            Hint: ./course hint 01.2
    COURSE_TODO("01.2");
}

// ---- instantiations: do not edit ----
template EncoderOutput<float> encode(const Var<float>&, const IndexVector&, const GruLayer<float>&);
template EncoderOutput<double> encode(const Var<double>&, const IndexVector&, const GruLayer<double>&);

}  // namespace attn::ch01
