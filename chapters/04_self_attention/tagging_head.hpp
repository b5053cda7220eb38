// The small output layer every tagger of chapters 04 and 05 ends with: one class score per
// position. In a file of its own so that a chapter using it does not link the taggers (and,
// through them, chapter 01's GRU cell, which `./course run NN --mine` would then ask for).
#pragma once
#include "common/nn/layers.hpp"

namespace attn::ch04 {

// Per position: features (..., in) -> Linear -> ReLU -> Linear -> class scores (..., classes).
class TaggingHead : public Module<float> {
public:
    TaggingHead(std::size_t in, std::size_t hidden, std::size_t classes, Rng& rng);
    Var<float> operator()(const Var<float>& features) const;

    Linear<float> hidden, output;
};

}  // namespace attn::ch04
