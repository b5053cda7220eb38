// Tiled attention as one differentiable op (tiled_attention.hpp): the forward pass is exercise
// 08.2, the backward pass exercise 08.3, both on plain tensors; this file only moves the Vars'
// values in and out, without copying them.
#include "chapters/08_attention_at_scale/tiled_attention.hpp"

#include "chapters/08_attention_at_scale/tiled_attention_backward.hpp"
#include "chapters/08_attention_at_scale/tiled_attention_forward.hpp"

#include <stdexcept>
#include <string>

namespace attn::ch08 {

namespace {

// A Var's value seen as a Tensor3 over the same entries (share_storage: no copy of the
// (batch, n, d) inputs, which may be long), for the op to read.
template <class T>
Tensor3<T> borrowed(const Array<T>& value) {
    return Tensor3<T>(share_storage(value, Shape(value.shape().begin(), value.shape().end())));
}

template <class T>
void require_rank_3(const Var<T>& Q, const Var<T>& K, const Var<T>& V) {
    if (Q.dim() != 3 || K.dim() != 3 || V.dim() != 3)
        throw std::invalid_argument("tiled_attention: expected Q (batch, n_q, d), K (batch, n_k, d) and V (batch, n_k, "
                                    "d_v), got Q " + shape_string(Q.shape()) + ", K " + shape_string(K.shape()) + ", V " +
                                    shape_string(V.shape()));
}

}  // namespace

template <class T>
Var<T> tiled_attention(const Var<T>& Q, const Var<T>& K, const Var<T>& V, const KeyMask& mask, const Blocks& blocks) {
    require_rank_3(Q, K, V);
    TiledAttention<T> forward =
        tiled_attention_forward(borrowed(Q.value()), borrowed(K.value()), borrowed(V.value()), mask, blocks);   // 08.2
    // The output's entries move into the Var; the log-sum-exp (batch, n_q) is all the backward
    // pass keeps besides the inputs and the output, which the tape holds anyway.
    return record_op<T>("tiled_attention", Array<T>(std::move(forward.output)), {Q, K, V}, Reads::inputs_and_output,
                        [mask, blocks, log_sum_exp = std::move(forward.log_sum_exp)](Node<T>& self) {
        const TiledAttention<T> saved{borrowed(self.value), log_sum_exp};
        AttentionGradients<T> g =                                                                    // 08.3
            tiled_attention_backward(borrowed(self.inputs[0]->value), borrowed(self.inputs[1]->value),
                                     borrowed(self.inputs[2]->value), saved, borrowed(self.grad), mask, blocks);
        // Each input adds its own share, so one Var passed as Q, K and V receives all three.
        Tensor3<T>* gradients[] = {&g.dQ, &g.dK, &g.dV};
        for (std::size_t i = 0; i < 3; ++i)
            if (self.inputs[i]->requires_grad) accumulate_grad(*self.inputs[i], Array<T>(std::move(*gradients[i])));
    });
}

// ---- instantiations: do not edit ----
template Var<float> tiled_attention(const Var<float>&, const Var<float>&, const Var<float>&, const KeyMask&,
                                    const Blocks&);
template Var<double> tiled_attention(const Var<double>&, const Var<double>&, const Var<double>&, const KeyMask&,
                                     const Blocks&);

}  // namespace attn::ch08
