// Chapter 07's translation model with G key/value heads in its decoder: chapter 07's
// embeddings (scaled), positions, encoder and output layer around the grouped decoder
// (grouped_decoder_layer.hpp). At chapter 07's sizes the only change is G, so that training it
// by chapter 07's code and budget measures what sharing keys and values costs in quality.
#pragma once
#include "chapters/07_transformer/translation_model.hpp"
#include "chapters/08_attention_at_scale/grouped_decoder_layer.hpp"

#include <string>

namespace attn::ch08 {

// Parameters: source_embedding.weight, target_embedding.weight, encoder.* (chapter 07's
// TransformerEncoder), decoder.layers.L.{self_attn,multihead_attn}.{q,k,v,o}_proj.*, the
// decoder's feed-forward and norms as chapter 07's, decoder.norm.*, output.weight and .bias.
// Against chapter 07's model of the same sizes, each decoder attention has
// 2 (H - G) d_h (d + 1) fewer numbers: k_proj and v_proj have G d_h rows instead of d.
template <class T>
class GroupedQueryTranslation : public ch01::Seq2SeqModel<T> {
public:
    // Draws as nn.Transformer starts: every matrix Xavier-uniform; then each attention as
    // chapter 07's starts, q_proj, k_proj and v_proj with the bound of its stacked
    // in_proj_weight, sqrt(6 / (d + 3d)), whatever G, and all four biases zero, so that the
    // models differ in G alone. Throws std::invalid_argument unless kv_heads divides the heads.
    GroupedQueryTranslation(const ch07::TranslationSizes& sizes, std::size_t kv_heads, Rng& rng);

    // Teacher forcing over the whole target at once, masked as chapter 07's model is.
    Var<T> forward(const data::Batch& batch) override;
    // Greedy decoding's step through the key/value cache (8.15), which holds G heads per
    // layer: the source encoded once, one new position through the decoder per step.
    ch01::DecodeStep<T> decoder(const IndexMatrix& source, const IndexVector& source_lens) override;
    // Greedy decoding as chapter 07's model does it, the prefix run again at every step.
    ch01::DecodeStep<T> recomputing_decoder(const IndexMatrix& source, const IndexVector& source_lens);
    ch01::ModelSizes sizes() const override;
    // Chapter 07's description with the key/value heads: "heads 4, kv heads 2, layers 2+2, post-norm".
    std::string architecture() const override;
    std::size_t kv_heads() const { return kv_heads_; }

    Embedding<T> source_embedding, target_embedding;
    ch07::TransformerEncoder<T> encoder;
    GroupedDecoder<T> decoder_stack;   // "decoder"
    Linear<T> output;                  // d_model -> target vocabulary

private:
    Var<T> embed(const Embedding<T>& table, const IndexMatrix& tokens) const;
    ch07::TranslationSizes sizes_;
    std::size_t kv_heads_;
};

}  // namespace attn::ch08
