// Exercise 01.2: the encoder loop, equation (1.6) of the lesson.
#pragma once
#include "chapters/01_encoder_decoder/gru.hpp"
#include "common/tensor.hpp"

namespace attn::ch01 {

template <class T>
struct EncoderOutput {
    Var<T> states;   // (batch, seq_len, H): the state after each source position
    Var<T> final;    // (batch, H): each sequence's state after its last valid token
};

// Runs the GRU over embedded sources X (batch, seq_len, in) from h_0 = 0:
//   h_t = gru_cell(x_t W_ih^T + b_ih, h_{t-1})  for t < valid_lens[b],
//   h_t = h_{t-1}                              afterwards (padding leaves the state alone)  (1.6)
// so `final` is each sentence's own last state: the context vector of chapter 01.
// Throws std::invalid_argument if the shapes or lengths do not fit.
template <class T>
EncoderOutput<T> encode(const Var<T>& X, const IndexVector& valid_lens, const GruLayer<T>& layer);

}  // namespace attn::ch01
