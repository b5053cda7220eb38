// Chapter 07's translation model with the key/value cache (see cached_translation.hpp).
#include "chapters/08_attention_at_scale/cached_translation.hpp"

#include <stdexcept>
#include <string>

namespace attn::ch08 {

template <class T>
std::shared_ptr<IncrementalDecoder<T>> CachedTranslationModel<T>::start_decoding(const IndexMatrix& source,
                                                                                 const IndexVector& source_lens) {
    const ch03::Mask source_padding = ch07::padding_mask(source_lens, source.shape(1));
    const ch07::EncoderOutput<T> encoded = encode(this->transformer, this->embed_source(source), source_padding);
    // Each step runs only the newest position through the decoder, attending over the keys
    // and values its layers cached at the earlier steps (8.15), instead of recomputing the prefix.
    return std::make_shared<IncrementalDecoder<T>>(
        this->transformer.decoder, encoded.memory, source_padding,
        [this](const IndexMatrix& tokens) { return this->embed_target(tokens); },
        [this](const Var<T>& decoded) { return this->output(decoded); });
}

template <class T>
ch01::DecodeStep<T> CachedTranslationModel<T>::decoder(const IndexMatrix& source, const IndexVector& source_lens) {
    std::shared_ptr<IncrementalDecoder<T>> incremental = start_decoding(source, source_lens);
    return [incremental](const IndexVector& previous) { return incremental->step(previous); };
}

template <class T>
ch01::DecodeStep<T> CachedTranslationModel<T>::recomputing_decoder(const IndexMatrix& source,
                                                                   const IndexVector& source_lens) {
    return ch07::TransformerSeq2Seq<T>::decoder(source, source_lens);
}

template <class T>
BeamStep<T> CachedTranslationModel<T>::beam_decoder(const IndexMatrix& source, const IndexVector& source_lens) {
    if (source.shape(0) != 1)
        throw std::invalid_argument("beam_decoder: beam search decodes one sentence at a time, got a batch of " +
                                    std::to_string(source.shape(0)));
    std::shared_ptr<IncrementalDecoder<T>> incremental = start_decoding(source, source_lens);
    return [incremental](const IndexVector& previous, const std::vector<std::size_t>& parents) {
        return incremental->step(previous, parents);
    };
}

template class CachedTranslationModel<float>;
template class CachedTranslationModel<double>;

}  // namespace attn::ch08
