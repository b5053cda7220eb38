// Exercise 07.2: the encoder block, post-norm and pre-norm, equations (7.2)-(7.3)
#include "chapters/07_transformer/encoder_layer.hpp"

#include "chapters/05_multi_head_attention/multi_head_attention.hpp"
#include "common/autodiff/ops.hpp"

namespace attn::ch07 {

//   post-norm:  h = norm1(x + SA(x)),   out = norm2(h + FFN(h))                        (7.2)
//   pre-norm:   h = x + SA(norm1(x)),   out = h + FFN(norm2(h))                        (7.3)
template <class T>
EncoderLayerOutput<T> encoder_layer(const TransformerEncoderLayer<T>& layer, const Var<T>& x,
                                    const ch03::Mask& key_padding) {
    // TODO(07.2): one encoder block: self-attention, then the feed-forward network, each in a
    //             residual connection with its norm, where layer.norm_placement puts it
    //             ((7.2) or (7.3)). Return the output and the self-attention's per-head weights.
    //             Hint: ./course hint 07.2
    COURSE_TODO("07.2");
}

// ---- instantiations: do not edit ----
template EncoderLayerOutput<float> encoder_layer(const TransformerEncoderLayer<float>&, const Var<float>&,
                                                 const ch03::Mask&);
template EncoderLayerOutput<double> encoder_layer(const TransformerEncoderLayer<double>&, const Var<double>&,
                                                  const ch03::Mask&);

}  // namespace attn::ch07
