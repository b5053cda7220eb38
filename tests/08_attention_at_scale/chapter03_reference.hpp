// What chapter 08's tests compare the tiled attention with: chapter 03's
// scaled_dot_product_attention (its reference solution in every check binary but 03's own),
// which holds the whole (batch, n_q, n_k) matrix, with the same mask built from chapter 03's
// mask builders (as_chapter03_mask); and its gradients by the autodiff through that composition.
#pragma once
#include "chapters/03_queries_keys_values/scaled_dot_product_attention.hpp"
#include "chapters/08_attention_at_scale/agreement.hpp"
#include "chapters/08_attention_at_scale/tiles.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/support/gradcheck.hpp"

#include "common/xtensor_compat.hpp"

#include <cstdint>
#include <string>

namespace ref08 {

using attn::Tensor3;

template <class T>
attn::Var<T> leaf(const Tensor3<T>& x) { return attn::parameter<T>(attn::Array<T>(x)); }

// O = softmax(Q K^T / sqrt(d) + mask) V by chapter 03.
template <class T>
Tensor3<T> attention_output(const Tensor3<T>& Q, const Tensor3<T>& K, const Tensor3<T>& V,
                            const attn::ch08::KeyMask& mask = {}) {
    const attn::ch03::Mask blocked = attn::ch08::as_chapter03_mask(mask, Q.shape(0), Q.shape(1), K.shape(1));
    return attn::ch03::scaled_dot_product_attention(attn::constant<T>(attn::Array<T>(Q)), attn::constant<T>(attn::Array<T>(K)),
                                                    attn::constant<T>(attn::Array<T>(V)), blocked).output.value();
}

// dQ, dK, dV of sum(O * dO) by the autodiff through chapter 03's composition.
template <class T>
attn::ch08::AttentionGradients<T> attention_gradients(const Tensor3<T>& Q, const Tensor3<T>& K, const Tensor3<T>& V,
                                                      const Tensor3<T>& dO, const attn::ch08::KeyMask& mask = {}) {
    const attn::Var<T> q = leaf(Q), k = leaf(K), v = leaf(V);
    const attn::ch03::Mask blocked = attn::ch08::as_chapter03_mask(mask, Q.shape(0), Q.shape(1), K.shape(1));
    attn::backward(attn::ch03::scaled_dot_product_attention(q, k, v, blocked).output, attn::Array<T>(dO));
    return {q.grad(), k.grad(), v.grad()};
}

// N(0, spread^2) entries of a shape, seeded (tests/support/gradcheck.hpp).
template <class T = double>
Tensor3<T> random3(std::size_t batch, std::size_t n, std::size_t d, std::uint64_t seed, double spread = 1.0) {
    return xt::cast<T>(support::random_array({batch, n, d}, seed, spread));
}

inline std::string describe(const attn::ch08::Blocks& blocks) {
    return "blocks of " + std::to_string(blocks.queries) + " queries x " + std::to_string(blocks.keys) + " keys";
}

}  // namespace ref08
