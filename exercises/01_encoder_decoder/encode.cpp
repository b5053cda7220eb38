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
    // TODO(01.2): return every state h_1 .. h_seq_len, (batch, seq_len, H), and each sentence's
    //             final state c, (batch, H), of (1.6): from h_0 = 0, one gru_cell step per
    //             position, each sentence's state frozen once it has read valid_lens[b]
    //             positions. Stuck? ./course hint 01.2
    COURSE_TODO("01.2");
}

// ---- instantiations: do not edit ----
template EncoderOutput<float> encode(const Var<float>&, const IndexVector&, const GruLayer<float>&);
template EncoderOutput<double> encode(const Var<double>&, const IndexVector&, const GruLayer<double>&);

}  // namespace attn::ch01
