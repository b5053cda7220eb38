// Chapter 07's translation model (see translation_model.hpp).
#include "chapters/07_transformer/translation_model.hpp"

#include "chapters/03_queries_keys_values/causal_mask.hpp"
#include "chapters/03_queries_keys_values/length_mask.hpp"
#include "chapters/06_positional_encoding/add_positions.hpp"
#include "common/autodiff/ops.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

namespace attn::ch07 {

ch03::Mask padding_mask(const IndexVector& lens, std::size_t n) {
    // Chapter 03's mask of valid lengths for a single query, without its query axis.
    return xt::view(ch03::length_mask(lens, 1, n), xt::all(), 0, xt::all());
}

namespace {
// The padding of each sequence, or no mask at all when every sequence fills the batch, as
// nn.Transformer without a key_padding_mask: the same numbers (nothing is blocked either way)
// without masking the scores of every head.
ch03::Mask padding_if_any(const IndexVector& lens, std::size_t n) {
    const auto short_of_n = [n](std::int64_t len) { return len < static_cast<std::int64_t>(n); };
    const bool padded = std::any_of(lens.begin(), lens.end(), short_of_n);
    return padded ? padding_mask(lens, n) : ch03::no_mask();
}

// nn.Embedding's N(0, 1), or N(0, 1/d) so that sqrt(d) x has entries of size 1 (see the header).
template <class T>
void initialise(Embedding<T>& table, EmbeddingInit init, std::size_t d) {
    if (init == EmbeddingInit::scaled) table.weight.value() *= static_cast<T>(1 / std::sqrt(static_cast<double>(d)));
}
}  // namespace

template <class T>
TransformerSeq2Seq<T>::TransformerSeq2Seq(const TranslationSizes& sizes, Rng& rng)
    : source_embedding(sizes.source_vocab, sizes.transformer.d_model, rng),
      target_embedding(sizes.target_vocab, sizes.transformer.d_model, rng),
      transformer(sizes.transformer, rng),
      output(sizes.transformer.d_model, sizes.target_vocab, rng),
      sizes_(sizes) {
    initialise(source_embedding, sizes.embedding_init, sizes.transformer.d_model);
    initialise(target_embedding, sizes.embedding_init, sizes.transformer.d_model);
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
ch01::DecodeStep<T> TransformerSeq2Seq<T>::decoder(const IndexMatrix& source, const IndexVector& source_lens) {
    const ch03::Mask source_padding = padding_mask(source_lens, source.shape(1));
    const EncoderOutput<T> encoded = encode(transformer, embed_source(source), source_padding);   // once
    auto fed = std::make_shared<IndexMatrix>(IndexMatrix::from_shape({source.shape(0), 0}));   // <bos> y_1 ... so far
    return [this, encoded, source_padding, fed](const IndexVector& previous) {
        const std::size_t rows = fed->shape(0), t = fed->shape(1) + 1;
        IndexMatrix tokens = IndexMatrix::from_shape({rows, t});   // the tokens so far, then the new one
        for (std::size_t i = 0; i < rows; ++i) {
            for (std::size_t j = 0; j + 1 < t; ++j) tokens(i, j) = (*fed)(i, j);
            tokens(i, t - 1) = previous(i);
        }
        *fed = std::move(tokens);
        // The whole prefix through the decoder again, under the causal mask; only its last row is new.
        const TransformerOutput<T> decoded =
            decode(transformer, encoded, embed_target(*fed), ch03::no_mask(), ch03::causal_mask(rows, t), source_padding);
        const Var<T> logits = output(slice(decoded.output, 1, t - 1, t));   // (rows, 1, vocab)
        return reshape(logits, {rows, logits.shape(2)});                    // (rows, vocab)
    };
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

}  // namespace attn::ch07
