// Chapter 07's translation model with G key/value heads in its decoder (see grouped_query_translation.hpp).
#include "chapters/08_attention_at_scale/grouped_query_translation.hpp"

#include "chapters/03_queries_keys_values/causal_mask.hpp"
#include "chapters/06_positional_encoding/add_positions.hpp"
#include "chapters/07_transformer/transformer.hpp"
#include "chapters/08_attention_at_scale/incremental_decoder.hpp"
#include "common/autodiff/ops.hpp"

#include <cmath>
#include <memory>

namespace attn::ch08 {

namespace {
// As chapter 07's multi-head layer starts (ch05::MultiHeadAttention): W_q, W_k and W_v drawn
// with the bound of the (3d, d) in_proj_weight they would be rows of, biases zero. Xavier's
// own bound for a k_proj of G d_h rows, sqrt(6 / (d + G d_h)), would grow as G shrinks.
template <class T>
void start_as_chapter07(GroupedQueryAttention<T>& attention, Rng& rng) {
    const std::size_t d = attention.d_model();
    const double in_proj_bound = std::sqrt(6.0 / static_cast<double>(d + 3 * d));
    for (Linear<T>* projection : {&attention.q_proj, &attention.k_proj, &attention.v_proj}) {
        projection->weight.value() = uniform_array<T>(projection->weight.shape(), in_proj_bound, rng);
        projection->bias.value().fill(T(0));
    }
    attention.o_proj.bias.value().fill(T(0));
}
}  // namespace

template <class T>
GroupedQueryTranslation<T>::GroupedQueryTranslation(const ch07::TranslationSizes& sizes, std::size_t kv_heads, Rng& rng)
    : source_embedding(sizes.source_vocab, sizes.transformer.d_model, rng),
      target_embedding(sizes.target_vocab, sizes.transformer.d_model, rng),
      encoder(sizes.transformer, rng),
      decoder_stack(sizes.transformer, kv_heads, rng),
      output(sizes.transformer.d_model, sizes.target_vocab, rng),
      sizes_(sizes),
      kv_heads_(kv_heads) {
    ch07::initialise_embedding(source_embedding, sizes.embedding_init, sizes.transformer.d_model);
    ch07::initialise_embedding(target_embedding, sizes.embedding_init, sizes.transformer.d_model);
    this->register_module("source_embedding", source_embedding);
    this->register_module("target_embedding", target_embedding);
    this->register_module("encoder", encoder);
    this->register_module("decoder", decoder_stack);
    this->register_module("output", output);
    ch07::xavier_uniform_matrices(encoder, rng);
    ch07::xavier_uniform_matrices(decoder_stack, rng);
    for (const auto& layer : decoder_stack.layers) {
        start_as_chapter07(layer->self_attn, rng);
        start_as_chapter07(layer->multihead_attn, rng);
    }
}

template <class T>
Var<T> GroupedQueryTranslation<T>::embed(const Embedding<T>& table, const IndexMatrix& tokens) const {
    return ch06::add_positions(table(tokens));   // sqrt(d) x + P   (6.3)
}

template <class T>
Var<T> GroupedQueryTranslation<T>::forward(const data::Batch& batch) {
    const std::size_t rows = batch.source.shape(0), n = batch.source.shape(1), m = batch.target_in.shape(1);
    const ch03::Mask source_padding = ch07::padding_if_any(batch.source_lens, n);
    const ch07::EncoderOutput<T> encoded = ch07::encode(encoder, embed(source_embedding, batch.source), source_padding);
    const ch07::TransformerOutput<T> decoded =
        grouped_decode(decoder_stack, encoded, embed(target_embedding, batch.target_in),
                       ch07::padding_if_any(batch.target_lens, m), ch03::causal_mask(rows, m), source_padding);
    return output(decoded.output);
}

template <class T>
ch01::DecodeStep<T> GroupedQueryTranslation<T>::decoder(const IndexMatrix& source, const IndexVector& source_lens) {
    const ch03::Mask source_padding = ch07::padding_mask(source_lens, source.shape(1));
    const ch07::EncoderOutput<T> encoded = ch07::encode(encoder, embed(source_embedding, source), source_padding);   // once
    const auto incremental = std::make_shared<IncrementalDecoder<T>>(
        decoder_stack, encoded.memory, source_padding,
        [this](const IndexMatrix& tokens) { return embed(target_embedding, tokens); },
        [this](const Var<T>& decoded) { return output(decoded); });
    return [incremental](const IndexVector& previous) { return incremental->step(previous); };
}

template <class T>
ch01::DecodeStep<T> GroupedQueryTranslation<T>::recomputing_decoder(const IndexMatrix& source,
                                                                    const IndexVector& source_lens) {
    const ch03::Mask source_padding = ch07::padding_mask(source_lens, source.shape(1));
    const ch07::EncoderOutput<T> encoded = ch07::encode(encoder, embed(source_embedding, source), source_padding);   // once
    return ch07::prefix_decoder<T>(source.shape(0), [this, encoded, source_padding](const IndexMatrix& prefix) {
        const std::size_t rows = prefix.shape(0), t = prefix.shape(1);
        const ch07::TransformerOutput<T> decoded = grouped_decode(decoder_stack, encoded, embed(target_embedding, prefix),
                                                                  ch03::no_mask(), ch03::causal_mask(rows, t), source_padding);
        const Var<T> logits = output(slice(decoded.output, 1, t - 1, t));   // (rows, 1, vocab)
        return reshape(logits, {rows, logits.shape(2)});
    });
}

template <class T>
ch01::ModelSizes GroupedQueryTranslation<T>::sizes() const {
    return {sizes_.source_vocab, sizes_.target_vocab, sizes_.transformer.d_model, sizes_.transformer.feed_forward};
}

template <class T>
std::string GroupedQueryTranslation<T>::architecture() const {
    const ch07::TransformerSizes& t = sizes_.transformer;
    return "heads " + std::to_string(t.heads) + ", kv heads " + std::to_string(kv_heads_) + ", layers " +
           std::to_string(t.encoder_layers) + "+" + std::to_string(t.decoder_layers) + ", " +
           (t.norm == ch07::NormPlacement::pre ? "pre" : "post") + "-norm";
}

template class GroupedQueryTranslation<float>;
template class GroupedQueryTranslation<double>;

}  // namespace attn::ch08
