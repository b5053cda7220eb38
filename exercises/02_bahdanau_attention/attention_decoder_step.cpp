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
    // TODO(02.4): return one decoder step of (2.5)-(2.7): the logits (batch, V), the new state
    //             (batch, H) and the attention weights (batch, S) over each sentence's valid
    //             source positions, the query being previous_state. Stuck? ./course hint 02.4
    COURSE_TODO("02.4");
}

// ---- instantiations: do not edit ----
template DecoderStepOutput<float> attention_decoder_step(const Var<float>&, const Var<float>&, const EncoderMemory<float>&,
                                                         const AttentionDecoderLayers<float>&);
template DecoderStepOutput<double> attention_decoder_step(const Var<double>&, const Var<double>&, const EncoderMemory<double>&,
                                                          const AttentionDecoderLayers<double>&);

}  // namespace attn::ch02
