// Two taggers for the image task, each a Linear embedding of every patch vector, one way of
// mixing the patches, and the counting task's head (one class score per patch): one
// self-attention layer (every patch sees every other) and a stack of 3 x 3 convolutions over
// the 8 x 8 grid of patch embeddings (each patch sees a square around it).
#pragma once
#include "chapters/03_queries_keys_values/attention_layer.hpp"
#include "chapters/04_self_attention/taggers.hpp"
#include "common/nn/conv2d.hpp"

#include <memory>
#include <string>
#include <vector>

namespace attn::ch04 {

class PatchTagger : public Module<float> {
public:
    // patches (batch, grid * grid, channels p p), as patchify gives them -> class scores
    // (batch, grid * grid, classes)
    virtual Var<float> operator()(const Array<float>& patches) const = 0;
    virtual std::string name() const = 0;
};

// Linear(patch -> d_model), then x + SelfAttention(x) (04.1, no positions: counting colours
// does not need to know where a patch is), then the head. The same shape as the counting
// task's AttentionTagger, with the embedding table replaced by a Linear on pixels.
class PatchAttentionTagger : public PatchTagger {
public:
    PatchAttentionTagger(std::size_t patch_size, std::size_t d_model, std::size_t hidden, std::size_t classes, Rng& rng);
    Var<float> operator()(const Array<float>& patches) const override;
    std::string name() const override { return "self-attention"; }
    // patches (batch, n, patch_size) -> the attention weights (batch, n, n)
    Array<float> weights(const Array<float>& patches) const;

    Linear<float> embed;
    ch03::AttentionLayer<float> attention;
    TaggingHead head;
};

// Linear(patch -> d_model), the embeddings laid out as the grid (batch, grid, grid, d_model),
// `layers` 3 x 3 convolutions each followed by a ReLU, then the head on every patch. Patch
// (r, c)'s output depends on the patches within Chebyshev distance `layers` of it, no others.
class PatchConvTagger : public PatchTagger {
public:
    PatchConvTagger(std::size_t grid, std::size_t patch_size, std::size_t d_model, std::size_t channels,
                    std::size_t layers, std::size_t hidden, std::size_t classes, Rng& rng);
    Var<float> operator()(const Array<float>& patches) const override;
    std::string name() const override;

    std::size_t grid;
    Linear<float> embed;
    std::vector<std::unique_ptr<Conv2d<float>>> convolutions;
    TaggingHead head;
};

}  // namespace attn::ch04
