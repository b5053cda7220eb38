// Chapter 07's translation model (see translation_model.hpp).
#include "chapters/07_transformer/translation_model.hpp"

#include "chapters/03_queries_keys_values/causal_mask.hpp"
#include "chapters/03_queries_keys_values/length_mask.hpp"
#include "chapters/06_positional_encoding/add_positions.hpp"
#include "common/autodiff/ops.hpp"

#include <algorithm>
#include <cmath>
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
std::shared_ptr<IncrementalDecoder<T>> TransformerSeq2Seq<T>::start_decoding(const IndexMatrix& source,
                                                                             const IndexVector& source_lens) {
    const ch03::Mask source_padding = padding_mask(source_lens, source.shape(1));
    const EncoderOutput<T> encoded = encode(transformer, embed_source(source), source_padding);
    // Each step runs only the newest position through the decoder, attending over the keys
    // and values its layers cached at the earlier steps (7.5), instead of recomputing the prefix.
    return std::make_shared<IncrementalDecoder<T>>(
        transformer.decoder, encoded.memory, source_padding,
        [this](const IndexMatrix& tokens) { return embed_target(tokens); },
        [this](const Var<T>& decoded) { return output(decoded); });
}

template <class T>
ch01::DecodeStep<T> TransformerSeq2Seq<T>::decoder(const IndexMatrix& source, const IndexVector& source_lens) {
    std::shared_ptr<IncrementalDecoder<T>> incremental = start_decoding(source, source_lens);
    return [incremental](const IndexVector& previous) { return incremental->step(previous); };
}

template <class T>
BeamStep<T> TransformerSeq2Seq<T>::beam_decoder(const IndexMatrix& source, const IndexVector& source_lens) {
    if (source.shape(0) != 1)
        throw std::invalid_argument("beam_decoder: beam search decodes one sentence at a time, got a batch of " +
                                    std::to_string(source.shape(0)));
    std::shared_ptr<IncrementalDecoder<T>> incremental = start_decoding(source, source_lens);
    return [incremental](const IndexVector& previous, const std::vector<std::size_t>& parents) {
        return incremental->step(previous, parents);
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
