// The partners model (see partner_tagger.hpp).
#include "chapters/05_multi_head_attention/partner_tagger.hpp"

#include "chapters/05_multi_head_attention/multi_head_attention.hpp"
#include "common/autodiff/ops.hpp"

namespace attn::ch05 {

PartnerTagger::PartnerTagger(const PartnersTask& task, std::size_t d_model, std::size_t heads, std::size_t hidden,
                             Rng& rng)
    : colour(task.colours, d_model, rng), shape(task.shapes, d_model, rng), digit(task.digits, d_model, rng),
      attention(d_model, heads, rng), head(d_model, hidden, task.classes(), rng) {
    this->register_module("colour", colour);
    this->register_module("shape", shape);
    this->register_module("digit", digit);
    this->register_module("attention", attention);
    this->register_module("head", head);
}

// A sum of three embeddings rather than one vector per (colour, shape, digit): "same colour"
// is then the same direction in every item that has it, which a query and a key can match.
Var<float> PartnerTagger::embed(const PartnersBatch& batch) const {
    return colour(batch.colour) + shape(batch.shape) + digit(batch.digit);
}

Var<float> PartnerTagger::operator()(const PartnersBatch& batch) const {
    const Var<float> x = embed(batch);
    // A residual connection: the head sees the item itself beside what the heads gathered.
    return head(x + multi_head_attention(attention, x, x, x).output);
}

Array<float> PartnerTagger::head_weights(const PartnersBatch& batch) const {
    const Var<float> x = embed(batch);
    return multi_head_attention(attention, x, x, x).head_weights.value();
}

}  // namespace attn::ch05
