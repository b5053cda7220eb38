// The model of chapter 05's experiment: each item embedded as the sum of its colour's, its
// shape's and its digit's vectors, then x + MultiHeadAttention(x, x, x) (no positions: the
// items form a set), then chapter 04's per-item head (Linear, ReLU, Linear) scoring the classes.
#pragma once
#include "chapters/04_self_attention/tagging_head.hpp"
#include "chapters/05_multi_head_attention/multi_head_layer.hpp"
#include "chapters/05_multi_head_attention/partners_task.hpp"

namespace attn::ch05 {

class PartnerTagger : public Module<float> {
public:
    PartnerTagger(const PartnersTask& task, std::size_t d_model, std::size_t heads, std::size_t hidden, Rng& rng);
    // -> class scores (batch, items, classes)
    Var<float> operator()(const PartnersBatch& batch) const;
    // -> each head's attention weights (batch, heads, items, items)
    Array<float> head_weights(const PartnersBatch& batch) const;

    Embedding<float> colour, shape, digit;
    MultiHeadAttention<float> attention;
    ch04::TaggingHead head;

private:
    Var<float> embed(const PartnersBatch& batch) const;   // (batch, items, d)
};

}  // namespace attn::ch05
