// Tiled against chapter 03's attention, grouped-query against chapter 05's (agreement.hpp).
#include "chapters/08_attention_at_scale/agreement.hpp"

#include "chapters/03_queries_keys_values/causal_mask.hpp"
#include "chapters/03_queries_keys_values/length_mask.hpp"
#include "chapters/03_queries_keys_values/scaled_dot_product_attention.hpp"
#include "chapters/05_multi_head_attention/multi_head_attention.hpp"
#include "chapters/08_attention_at_scale/grouped_query_attention.hpp"
#include "chapters/08_attention_at_scale/key_sharing.hpp"
#include "chapters/08_attention_at_scale/tiled_attention_backward.hpp"
#include "chapters/08_attention_at_scale/tiled_attention_forward.hpp"
#include "common/random.hpp"

#include <algorithm>

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

double multi_head_difference(Rng& rng) {
    const std::size_t d = 16, heads = 4, batch = 2, n_q = 5, n_k = 7;
    ch05::MultiHeadAttention<double> multi(d, heads, rng);
    // PyTorch starts both biases at zero; random ones show a bias that goes astray.
    for (double& b : multi.in_proj_bias.value()) b = rng.uniform(-0.5, 0.5);
    for (double& b : multi.out_proj.bias.value()) b = rng.uniform(-0.5, 0.5);
    GroupedQueryAttention<double> grouped(d, heads, heads, rng);
    copy_multi_head(multi, grouped);

    const Var<double> query = constant<double>(Array<double>(random_tensor(batch, n_q, d, rng)));
    const Var<double> key = constant<double>(Array<double>(random_tensor(batch, n_k, d, rng)));
    const Var<double> value = constant<double>(Array<double>(random_tensor(batch, n_k, d, rng)));
    ch03::Mask padding = xt::zeros<bool>({batch, n_k});
    padding(1, n_k - 1) = true;                              // the second sequence's last key is padding
    ch03::Mask causal = xt::zeros<bool>({n_q, n_k});
    for (std::size_t i = 0; i < n_q; ++i)
        for (std::size_t j = i + n_k - n_q + 1; j < n_k; ++j) causal(i, j) = true;   // the queries are the last n_q keys

    const ch05::MultiHeadOutput<double> expected = ch05::multi_head_attention(multi, query, key, value, padding, causal);
    const GroupedQueryOutput<double> got = grouped_query_attention(grouped, query, key, value, padding, causal);   // 08.4
    const double output = xt::amax(xt::abs(got.output.value() - expected.output.value()))();
    const double weights = xt::amax(xt::abs(got.head_weights.value() - expected.head_weights.value()))();
    return std::max(output, weights);
}

Tensor3<double> random_tensor(std::size_t batch, std::size_t n, std::size_t d, Rng& rng) {
    Tensor3<double> x = Tensor3<double>::from_shape({batch, n, d});
    for (double& value : x) value = rng.normal();
    return x;
}

}  // namespace attn::ch08
