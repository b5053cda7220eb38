// The taggers' output layer (see tagging_head.hpp).
#include "chapters/04_self_attention/tagging_head.hpp"

#include "common/autodiff/ops.hpp"

namespace attn::ch04 {

TaggingHead::TaggingHead(std::size_t in, std::size_t hidden_size, std::size_t classes, Rng& rng)
    : hidden(in, hidden_size, rng), output(hidden_size, classes, rng) {
    this->register_module("hidden", hidden);
    this->register_module("output", output);
}

Var<float> TaggingHead::operator()(const Var<float>& features) const { return output(relu(hidden(features))); }

}  // namespace attn::ch04
