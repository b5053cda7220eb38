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
    const std::size_t batch = X.shape(0), seq_len = X.shape(1), H = layer.hidden_size;
    const Var<T> x_gates = layer.project_inputs(X);                   // (batch, seq_len, 3H), all steps at once (1.1)
    Var<T> h = constant<T>(xt::zeros<T>({batch, H}));                 // h_0 = 0
    std::vector<Var<T>> states;
    for (std::size_t t = 0; t < seq_len; ++t) {
        const Var<T> x_t = select(x_gates, 1, t);                          // step t: (batch, 3H)
        const Var<T> h_next = gru_cell(x_t, h, layer);
        // A sequence that has ended keeps its state, so `final` is its own last state.
        const Var<T> reading = constant<T>(reading_mask<T>(valid_lens, t));        // (batch, 1) of 1 / 0
        h = reading * h_next + (1 - reading) * h;                                  // (1.6)
        states.push_back(h);
    }
    return {stack(states, 1), h};                                     // (batch, seq_len, H), (batch, H)
    // Alternative: sort the batch by length and shrink it as sequences end (PyTorch's packed
    // sequences). It saves the work on padding but makes the loop much harder to read.
}

// ---- instantiations: do not edit ----
template EncoderOutput<float> encode(const Var<float>&, const IndexVector&, const GruLayer<float>&);
template EncoderOutput<double> encode(const Var<double>&, const IndexVector&, const GruLayer<double>&);

}  // namespace attn::ch01
