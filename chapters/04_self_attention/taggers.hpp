// Three taggers for the counting task, each an embedding, one way of mixing the positions,
// and the same small output layer (one class score per position): one self-attention layer
// (every position sees every other), a bidirectional GRU (information travels step by step)
// and a stack of 1-D convolutions (each position sees a fixed window around it).
#pragma once
#include "chapters/01_encoder_decoder/gru.hpp"
#include "chapters/03_queries_keys_values/attention_layer.hpp"
#include "chapters/04_self_attention/tagging_head.hpp"
#include "common/nn/conv1d.hpp"
#include "common/nn/layers.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace attn::ch04 {

class Tagger : public Module<float> {
public:
    // tokens (batch, n) -> class scores (batch, n, classes)
    virtual Var<float> operator()(const xt::xarray<std::int64_t>& tokens) const = 0;
    virtual std::string name() const = 0;
};

// Embedding, then x + SelfAttention(x) (04.1, no positions: counting does not need order),
// then the head. The weights of the attention are kept from the last call, for plotting.
class AttentionTagger : public Tagger {
public:
    AttentionTagger(std::size_t vocab, std::size_t d_model, std::size_t hidden, std::size_t classes, Rng& rng);
    Var<float> operator()(const xt::xarray<std::int64_t>& tokens) const override;
    std::string name() const override { return "self-attention"; }
    // tokens (batch, n) -> the attention weights (batch, n, n)
    Array<float> weights(const xt::xarray<std::int64_t>& tokens) const;

    Embedding<float> embed;
    ch03::AttentionLayer<float> attention;
    TaggingHead head;
};

// Embedding, then a GRU read left to right and another read right to left (chapter 01's
// cell), their states at each position concatenated, then the head.
class GruTagger : public Tagger {
public:
    GruTagger(std::size_t vocab, std::size_t d_model, std::size_t state, std::size_t hidden, std::size_t classes, Rng& rng);
    Var<float> operator()(const xt::xarray<std::int64_t>& tokens) const override;
    std::string name() const override { return "bidirectional GRU"; }

    Embedding<float> embed;
    ch01::GruLayer<float> forward, backward;
    TaggingHead head;
};

// Embedding, then `layers` convolutions of kernel 3, each followed by a ReLU, then the head.
// Position i's output depends on the tokens within `layers` positions of i and on no others.
class ConvTagger : public Tagger {
public:
    ConvTagger(std::size_t vocab, std::size_t d_model, std::size_t channels, std::size_t layers, std::size_t hidden,
               std::size_t classes, Rng& rng);
    Var<float> operator()(const xt::xarray<std::int64_t>& tokens) const override;
    std::string name() const override;

    Embedding<float> embed;
    std::vector<std::unique_ptr<Conv1d<float>>> convolutions;
    TaggingHead head;
};

}  // namespace attn::ch04
