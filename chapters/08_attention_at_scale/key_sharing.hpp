// Part 5's layers: chapter 05's multi-head layer carried over into grouped-query form, its
// key/value heads merged into fewer by averaging (how Ainslie et al. turn a trained multi-head
// model into a grouped-query one, before a short further training), and which heads of a run
// drew the same map.
#pragma once
#include "chapters/05_multi_head_attention/multi_head_layer.hpp"
#include "chapters/08_attention_at_scale/grouped_query_layer.hpp"

#include <vector>

namespace attn::ch08 {

// `into` (kv_heads = heads = from's heads, the same d_model) takes from's weights: q_proj,
// k_proj and v_proj the three blocks of in_proj_weight and in_proj_bias, o_proj = out_proj.
// Then grouped_query_attention(into, ...) computes chapter 05's multi_head_attention(from, ...).
// Throws std::invalid_argument if the sizes differ.
template <class T>
void copy_multi_head(const ch05::MultiHeadAttention<T>& from, GroupedQueryAttention<T>& into);

// `into` has from's d_model and heads and G' key/value heads, G' dividing from's G: its
// key/value head g is the mean of from's heads g s, ..., g s + s - 1 (s = G / G'), their rows
// of the k_proj and v_proj weights and biases; q_proj and o_proj are copied. Throws
// std::invalid_argument if the sizes do not fit.
template <class T>
void pool_key_value_heads(const GroupedQueryAttention<T>& from, GroupedQueryAttention<T>& into);

// Gives every query head head 0's rows of q_proj (weight and bias): heads that read the same
// keys then draw the same map, and any difference between two heads' maps comes from their keys.
template <class T>
void same_query_for_every_head(GroupedQueryAttention<T>& layer);

// Query heads whose maps agree to `tolerance` everywhere (consecutive ones or not):
// weights (H, n_q, n_k) -> the heads split into classes of equal maps, each in increasing
// order, the classes ordered by their first head: {{0, 1}, {2, 3}}.
std::vector<std::vector<std::size_t>> heads_with_equal_maps(const xt::xarray<double>& weights, double tolerance);

}  // namespace attn::ch08
