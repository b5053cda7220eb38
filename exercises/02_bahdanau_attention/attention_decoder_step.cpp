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
    // TODO(02.4): attend with the previous state as the query (shape (b, 1, H)), join the embedding
    //            and the context, run one GRU step from the previous state, and score the new
    //            state with layers.output (2.5)-(2.7). Hint: ./course hint 02.4
    COURSE_TODO("02.4");
}

// ---- instantiations: do not edit ----
template DecoderStepOutput<float> attention_decoder_step(const Var<float>&, const Var<float>&, const EncoderMemory<float>&,
                                                         const AttentionDecoderLayers<float>&);
template DecoderStepOutput<double> attention_decoder_step(const Var<double>&, const Var<double>&, const EncoderMemory<double>&,
                                                          const AttentionDecoderLayers<double>&);

}  // namespace attn::ch02
