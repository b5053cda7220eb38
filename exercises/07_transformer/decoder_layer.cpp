// Exercise 07.3: the decoder block: causal self-attention, cross-attention, feed-forward, equation (7.4)
#include "chapters/07_transformer/decoder_layer.hpp"

#include "chapters/05_multi_head_attention/multi_head_attention.hpp"
#include "common/autodiff/ops.hpp"

namespace attn::ch07 {

//   post-norm:  h1 = norm1(y + SA(y)),  h2 = norm2(h1 + CA(h1)),  out = norm3(h2 + FFN(h2))   (7.4)
//   pre-norm:   h1 = y + SA(norm1(y)),  h2 = h1 + CA(norm2(h1)),  out = h2 + FFN(norm3(h2))
template <class T>
DecoderLayerOutput<T> decoder_layer(const TransformerDecoderLayer<T>& layer, const Var<T>& y, const Var<T>& memory,
                                    const ch03::Mask& target_padding, const ch03::Mask& self_mask,
                                    const ch03::Mask& memory_padding) {
    // TODO(07.3): one decoder block (7.4): the target's masked self-attention, the
    //             cross-attention over memory, and the feed-forward network, each in a residual
    //             connection with its norm as in 07.2. Return the output and both attentions'
    //             per-head weights. Hint: ./course hint 07.3
    COURSE_TODO("07.3");
}

// ---- instantiations: do not edit ----
template DecoderLayerOutput<float> decoder_layer(const TransformerDecoderLayer<float>&, const Var<float>&,
                                                 const Var<float>&, const ch03::Mask&, const ch03::Mask&,
                                                 const ch03::Mask&);
template DecoderLayerOutput<double> decoder_layer(const TransformerDecoderLayer<double>&, const Var<double>&,
                                                  const Var<double>&, const ch03::Mask&, const ch03::Mask&,
                                                  const ch03::Mask&);

}  // namespace attn::ch07
