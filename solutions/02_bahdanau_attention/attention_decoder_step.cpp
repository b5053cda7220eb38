// Exercise 02.4: one step of the attention decoder, equations (2.5)-(2.7).
#include "chapters/02_bahdanau_attention/attention_decoder_step.hpp"

#include "chapters/01_encoder_decoder/gru_cell.hpp"
#include "common/autodiff/ops.hpp"

namespace attn::ch02 {

// c_t = attention(s_{t-1}, h), s_t = GRU([e_{t-1}; c_t], s_{t-1}), logits = output(s_t)   (2.5)-(2.7)
// embedded_previous (b, E), previous_state (b, H) -> logits (b, V), state (b, H), weights (b, S)
template <class T>
DecoderStepOutput<T> attention_decoder_step(const Var<T>& embedded_previous, const Var<T>& previous_state,
                                            const EncoderMemory<T>& memory, const AttentionDecoderLayers<T>& layers) {
    const std::size_t batch = previous_state.shape(0), H = previous_state.shape(1), S = memory.states.shape(1);
    // The query is the state *before* this step: it asks "what do I need to write next?"
    const Var<T> query = reshape(previous_state, {batch, 1, H});                        // one query each
    const AttentionOutput<T> attended =
        additive_attention(query, memory.keys, memory.states, memory.valid_lens, layers.attention);   // (2.5)
    const Var<T> context = reshape(attended.context, {batch, H});                      // c_t: (b, H)
    const Var<T> x = concat<T>({embedded_previous, context}, 1);                       // (b, E + H)
    const Var<T> state = ch01::gru_cell(layers.gru.project_inputs(x), previous_state, layers.gru);   // (2.6)
    return {layers.output(state), state, reshape(attended.weights, {batch, S})};       // (2.7)
    // Luong et al. (2015) attend with the *new* state s_t instead and mix the context into
    // the output layer; the alignments look much the same.
}

// ---- instantiations: do not edit ----
template DecoderStepOutput<float> attention_decoder_step(const Var<float>&, const Var<float>&, const EncoderMemory<float>&,
                                                         const AttentionDecoderLayers<float>&);
template DecoderStepOutput<double> attention_decoder_step(const Var<double>&, const Var<double>&, const EncoderMemory<double>&,
                                                          const AttentionDecoderLayers<double>&);

}  // namespace attn::ch02
