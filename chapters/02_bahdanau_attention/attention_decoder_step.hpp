// Exercise 02.4: one step of the attention decoder, equations (2.5)-(2.7) of the lesson.
#pragma once
#include "chapters/01_encoder_decoder/gru.hpp"
#include "chapters/02_bahdanau_attention/additive_attention.hpp"

namespace attn::ch02 {

// What the decoder reads from the encoder, computed once per batch of sentences.
template <class T>
struct EncoderMemory {
    Var<T> states;          // h_1..h_S: (batch, S, H), the values attended over
    Var<T> keys;            // W_k h_j: (batch, S, hidden), projected once (2.1)
    IndexVector valid_lens; // (batch): positions j >= valid_lens[b] are padding
};

// The decoder's layers: attention, a GRU fed [embedding; context], the output layer.
template <class T>
struct AttentionDecoderLayers {
    const AdditiveAttention<T>& attention;
    const ch01::GruLayer<T>& gru;   // input size E + H
    const Linear<T>& output;        // H -> vocabulary
};

template <class T>
struct DecoderStepOutput {
    Var<T> logits;    // (batch, vocab): scores of the next token
    Var<T> state;     // s_t: (batch, H)
    Var<T> weights;   // alpha_t: (batch, S), where this step looked
};

// Given the embedding of the previous token (batch, E) and the previous state s_{t-1}
// (batch, H):
//   c_t, alpha_t = additive_attention(query s_{t-1}, keys, values h)      (2.5)
//   s_t = GRU([embedding; c_t], s_{t-1})                                    (2.6)
//   logits = output(s_t)                                                    (2.7)
template <class T>
DecoderStepOutput<T> attention_decoder_step(const Var<T>& embedded_previous, const Var<T>& previous_state,
                                            const EncoderMemory<T>& memory, const AttentionDecoderLayers<T>& layers);

}  // namespace attn::ch02
