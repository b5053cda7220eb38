// Tiled against chapter 03's attention (agreement.hpp).
#include "chapters/08_attention_at_scale/agreement.hpp"

#include "chapters/03_queries_keys_values/causal_mask.hpp"
#include "chapters/03_queries_keys_values/length_mask.hpp"
#include "chapters/03_queries_keys_values/scaled_dot_product_attention.hpp"
#include "chapters/08_attention_at_scale/tiled_attention_backward.hpp"
#include "chapters/08_attention_at_scale/tiled_attention_forward.hpp"
#include "common/random.hpp"

namespace attn::ch08 {

ch03::Mask as_chapter03_mask(const KeyMask& mask, std::size_t batch, std::size_t n_q, std::size_t n_k) {
    ch03::Mask blocked = ch03::no_mask();
    if (mask.causal) blocked = ch03::causal_mask(batch, n_q);
    if (mask.valid_lens.size() != 0) {
        const ch03::Mask padding = ch03::length_mask(xt::xarray<std::int64_t>(mask.valid_lens), n_q, n_k);
        blocked = ch03::is_empty(blocked) ? padding : ch03::either(blocked, padding);
    }
    return blocked;
}

double forward_difference(const Tensor3<double>& Q, const Tensor3<double>& K, const Tensor3<double>& V,
                          const KeyMask& mask, const Blocks& blocks) {
    const Tensor3<double> tiled = tiled_attention_forward(Q, K, V, mask, blocks).output;   // 08.2
    const Array<double> whole = ch03::scaled_dot_product_attention(
        constant<double>(Array<double>(Q)), constant<double>(Array<double>(K)), constant<double>(Array<double>(V)),
        as_chapter03_mask(mask, Q.shape(0), Q.shape(1), K.shape(1))).output.value();           // 03.2
    return xt::amax(xt::abs(tiled - whole))();
}

GradientAgreement gradient_difference(const Tensor3<double>& Q, const Tensor3<double>& K, const Tensor3<double>& V,
                                      const Tensor3<double>& dO, const KeyMask& mask, const Blocks& blocks) {
    const TiledAttention<double> forward = tiled_attention_forward(Q, K, V, mask, blocks);             // 08.2
    const AttentionGradients<double> tiled = tiled_attention_backward(Q, K, V, forward, dO, mask, blocks);   // 08.3
    const Var<double> q = parameter<double>(Array<double>(Q)), k = parameter<double>(Array<double>(K));
    const Var<double> v = parameter<double>(Array<double>(V));
    backward(ch03::scaled_dot_product_attention(q, k, v, as_chapter03_mask(mask, Q.shape(0), Q.shape(1), K.shape(1))).output,
             Array<double>(dO));
    return {max_relative_error(tiled.dQ, q.grad()), max_relative_error(tiled.dK, k.grad()),
            max_relative_error(tiled.dV, v.grad())};
}

Tensor3<double> random_tensor(std::size_t batch, std::size_t n, std::size_t d, Rng& rng) {
    Tensor3<double> x = Tensor3<double>::from_shape({batch, n, d});
    for (double& value : x) value = rng.normal();
    return x;
}

}  // namespace attn::ch08
