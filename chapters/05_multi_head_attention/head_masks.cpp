// The masks of multi-head attention (see head_masks.hpp).
#include "chapters/05_multi_head_attention/head_masks.hpp"

#include "common/xtensor_compat.hpp"

#include <stdexcept>
#include <string>

namespace attn::ch05 {

namespace {
std::string text(const Shape& shape) { return shape_string(shape); }
Shape shape_of(const ch03::Mask& mask) { return Shape(mask.shape().begin(), mask.shape().end()); }

// Both masks are a ch03::Mask, so passing them swapped compiles: when a mask of the wrong shape
// has the other one's shape, the error says so, "; (4, 4) is the shape of an attention mask ...".
std::string swapped_hint(const Shape& shape, const std::string& other_mask, const std::string& pass_it_as) {
    return "; " + text(shape) + " is the shape of " + other_mask + ": pass it as " + pass_it_as;
}
}  // namespace

ch03::Mask combine_masks(const ch03::Mask& key_padding, const ch03::Mask& attention_mask, std::size_t batch,
                         std::size_t n_q, std::size_t n_k) {
    const Shape full{batch, n_q, n_k};
    ch03::Mask padding = ch03::no_mask(), attention = ch03::no_mask();
    if (!ch03::is_empty(key_padding)) {
        const Shape shape = shape_of(key_padding);
        if (shape != Shape{batch, n_k}) {
            std::string hint;
            if (shape == Shape{n_q, n_k} || shape == full)
                hint = swapped_hint(shape, "an attention mask, (n_q, n_k) or (batch, n_q, n_k)",
                                    "attention_mask, after key_padding");
            else if (shape.size() == 2 && shape[0] == batch)   // a padding mask, but of other keys
                hint = "; it covers " + std::to_string(shape[1]) + " keys where there are n_k = " +
                       std::to_string(n_k) + ": are the keys (and values) the sequence this padding belongs to?";
            throw std::invalid_argument("combine_masks: key padding mask " + text(shape) + " must be (batch, n_k) = " +
                                        text({batch, n_k}) + hint);
        }
        // The same keys are blocked for every query: broadcast over the query axis.
        padding = xt::broadcast(xt::view(key_padding, xt::all(), xt::newaxis(), xt::all()), full);
    }
    if (!ch03::is_empty(attention_mask)) {
        const Shape shape = shape_of(attention_mask);
        if (shape != Shape{n_q, n_k} && shape != full) {
            std::string hint;
            if (shape == Shape{batch, n_k})
                hint = swapped_hint(shape, "a key padding mask, (batch, n_k)", "key_padding, before attention_mask");
            throw std::invalid_argument("combine_masks: attention mask " + text(shape) + " must be (n_q, n_k) = " +
                                        text({n_q, n_k}) + " or (batch, n_q, n_k) = " + text(full) + hint);
        }
        attention = xt::broadcast(attention_mask, full);
    }
    return ch03::either(padding, attention);
}

ch03::Mask repeat_for_heads(const ch03::Mask& blocked, std::size_t heads) {
    if (ch03::is_empty(blocked)) return blocked;
    if (blocked.dimension() != 3)
        throw std::invalid_argument("repeat_for_heads: mask " + text(shape_of(blocked)) + " must be (batch, n_q, n_k)");
    const std::size_t batch = blocked.shape(0), n_q = blocked.shape(1), n_k = blocked.shape(2);
    // (batch, 1, n_q, n_k) -> (batch, heads, n_q, n_k) -> (batch * heads, n_q, n_k): split_heads' order.
    ch03::Mask repeated =
        xt::broadcast(xt::view(blocked, xt::all(), xt::newaxis(), xt::all(), xt::all()), Shape{batch, heads, n_q, n_k});
    repeated.reshape({batch * heads, n_q, n_k});
    return repeated;
}

}  // namespace attn::ch05
