// The two masks of multi-head attention, as torch.nn.MultiheadAttention takes them (boolean,
// true = blocked), turned into the one (batch * heads, n_q, n_k) mask that chapter 03's
// scaled_dot_product_attention applies to every head.
#pragma once
#include "chapters/03_queries_keys_values/attention.hpp"

namespace attn::ch05 {

// key_padding (batch, n_k): key j of batch entry b is padding, blocked for every query.
// attention_mask (n_q, n_k), the same for every batch entry, or (batch, n_q, n_k).
// Either may be ch03::no_mask(). -> their union (batch, n_q, n_k), or no_mask() if both are
// empty. Throws std::invalid_argument, naming the shapes, if one does not fit; the message
// says when a mask has the other one's shape (the two passed swapped), or when a key padding
// has one row per sequence but another length (keys from another sequence).
ch03::Mask combine_masks(const ch03::Mask& key_padding, const ch03::Mask& attention_mask, std::size_t batch,
                         std::size_t n_q, std::size_t n_k);

// blocked (batch, n_q, n_k) -> (batch * heads, n_q, n_k), entry b * heads + h a copy of
// blocked[b]: every head of a sequence sees the same keys, in split_heads' order (5.1).
ch03::Mask repeat_for_heads(const ch03::Mask& blocked, std::size_t heads);

}  // namespace attn::ch05
