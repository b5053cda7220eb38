// Chapter 07's translation model (see translation_model.hpp).
#include "chapters/07_transformer/translation_model.hpp"

#include "chapters/03_queries_keys_values/causal_mask.hpp"
#include "chapters/03_queries_keys_values/length_mask.hpp"
#include "chapters/06_positional_encoding/add_positions.hpp"
#include "common/autodiff/ops.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

namespace attn::ch07 {

ch03::Mask padding_mask(const IndexVector& lens, std::size_t n) {
    // Chapter 03's mask of valid lengths for a single query, without its query axis.
    return xt::view(ch03::length_mask(lens, 1, n), xt::all(), 0, xt::all());
}

ch03::Mask padding_if_any(const IndexVector& lens, std::size_t n) {
    const auto short_of_n = [n](std::int64_t len) { return len < static_cast<std::int64_t>(n); };
    const bool padded = std::any_of(lens.begin(), lens.end(), short_of_n);
    return padded ? padding_mask(lens, n) : ch03::no_mask();
}

template <class T>
void initialise_embedding(Embedding<T>& table, EmbeddingInit init, std::size_t d) {
    if (init == EmbeddingInit::scaled) table.weight.value() *= static_cast<T>(1 / std::sqrt(static_cast<double>(d)));
}

template <class T>
TransformerSeq2Seq<T>::TransformerSeq2Seq(const TranslationSizes& sizes, Rng& rng)
    : source_embedding(sizes.source_vocab, sizes.transformer.d_model, rng),
      target_embedding(sizes.target_vocab, sizes.transformer.d_model, rng),
      transformer(sizes.transformer, rng),
      output(sizes.transformer.d_model, sizes.target_vocab, rng),
      sizes_(sizes) {
    initialise_embedding(source_embedding, sizes.embedding_init, sizes.transformer.d_model);
    initialise_embedding(target_embedding, sizes.embedding_init, sizes.transformer.d_model);
    this->register_module("source_embedding", source_embedding);
    this->register_module("target_embedding", target_embedding);
    this->register_module("transformer", transformer);
    this->register_module("output", output);
}

template <class T>
Var<T> TransformerSeq2Seq<T>::embed_source(const IndexMatrix& source) const {
    return ch06::add_positions(source_embedding(source));   // sqrt(d) x + P   (6.3)
}

template <class T>
Var<T> TransformerSeq2Seq<T>::embed_target(const IndexMatrix& target) const {
    return ch06::add_positions(target_embedding(target));
}

template <class T>
TranslationOutput<T> TransformerSeq2Seq<T>::forward_with_weights(const data::Batch& batch) {
    const std::size_t rows = batch.source.shape(0), n = batch.source.shape(1), m = batch.target_in.shape(1);
    const ch03::Mask source_padding = padding_if_any(batch.source_lens, n);
    TransformerOutput<T> out = transformer_forward(transformer, embed_source(batch.source), embed_target(batch.target_in),
                                                   source_padding, padding_if_any(batch.target_lens, m),
                                                   ch03::causal_mask(rows, m), source_padding);
    return {output(out.output), std::move(out)};
}

template <class T>
ch01::DecodeStep<T> prefix_decoder(std::size_t rows, std::function<Var<T>(const IndexMatrix& prefix)> last_scores) {
    auto fed = std::make_shared<IndexMatrix>(IndexMatrix::from_shape({rows, 0}));   // <bos> y_1 ... so far
    return [last_scores = std::move(last_scores), fed](const IndexVector& previous) {
        const std::size_t t = fed->shape(1) + 1;
        IndexMatrix tokens = IndexMatrix::from_shape({fed->shape(0), t});   // the tokens so far, then the new one
        for (std::size_t i = 0; i < tokens.shape(0); ++i) {
            for (std::size_t j = 0; j + 1 < t; ++j) tokens(i, j) = (*fed)(i, j);
            tokens(i, t - 1) = previous(i);
        }
        *fed = std::move(tokens);
        return last_scores(*fed);
    };
}

template <class T>
ch01::DecodeStep<T> TransformerSeq2Seq<T>::decoder(const IndexMatrix& source, const IndexVector& source_lens) {
    const ch03::Mask source_padding = padding_mask(source_lens, source.shape(1));
    const EncoderOutput<T> encoded = encode(transformer, embed_source(source), source_padding);   // once
    return prefix_decoder<T>(source.shape(0), [this, encoded, source_padding](const IndexMatrix& prefix) {
        const std::size_t rows = prefix.shape(0), t = prefix.shape(1);
        // The whole prefix through the decoder again, under the causal mask; only its last row is new.
        const TransformerOutput<T> decoded =
            decode(transformer, encoded, embed_target(prefix), ch03::no_mask(), ch03::causal_mask(rows, t), source_padding);
        const Var<T> logits = output(slice(decoded.output, 1, t - 1, t));   // (rows, 1, vocab)
        return reshape(logits, {rows, logits.shape(2)});                    // (rows, vocab)
    });
}

template <class T>
ch01::ModelSizes TransformerSeq2Seq<T>::sizes() const {
    return {sizes_.source_vocab, sizes_.target_vocab, sizes_.transformer.d_model, sizes_.transformer.feed_forward};
}

template <class T>
std::string TransformerSeq2Seq<T>::architecture() const {
    const TransformerSizes& t = sizes_.transformer;
    return "heads " + std::to_string(t.heads) + ", layers " + std::to_string(t.encoder_layers) + "+" +
           std::to_string(t.decoder_layers) + ", " + (t.norm == NormPlacement::pre ? "pre" : "post") + "-norm" +
           (t.statistics == NormStatistics::batch ? ", batch statistics" : "");
}

template class TransformerSeq2Seq<float>;
template class TransformerSeq2Seq<double>;
template void initialise_embedding(Embedding<float>&, EmbeddingInit, std::size_t);
template void initialise_embedding(Embedding<double>&, EmbeddingInit, std::size_t);
template ch01::DecodeStep<float> prefix_decoder(std::size_t, std::function<Var<float>(const IndexMatrix&)>);
template ch01::DecodeStep<double> prefix_decoder(std::size_t, std::function<Var<double>(const IndexMatrix&)>);

}  // namespace attn::ch07
