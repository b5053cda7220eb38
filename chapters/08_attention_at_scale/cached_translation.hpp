// Chapter 07's translation model, decoding through the key/value cache (8.15): the same
// parameters, training and checkpoints as chapter 07's, but each greedy or beam step feeds only
// the newest position through the decoder (IncrementalDecoder), where chapter 07's decoder runs
// over the whole prefix again at every step.
#pragma once
#include "chapters/07_transformer/translation_model.hpp"
#include "chapters/08_attention_at_scale/beam_search.hpp"
#include "chapters/08_attention_at_scale/incremental_decoder.hpp"

#include <memory>

namespace attn::ch08 {

template <class T>
class CachedTranslationModel : public ch07::TransformerSeq2Seq<T> {
public:
    // Chapter 07's constructor: the same sizes and random generator give the same parameters.
    using ch07::TransformerSeq2Seq<T>::TransformerSeq2Seq;

    // Greedy decoding's step (chapter 01's loop): the source is encoded once, and each step
    // runs one new position through the decoder's cache.
    ch01::DecodeStep<T> decoder(const IndexMatrix& source, const IndexVector& source_lens) override;
    // Chapter 07's step, which recomputes the prefix: part 6 measures the cache against it.
    ch01::DecodeStep<T> recomputing_decoder(const IndexMatrix& source, const IndexVector& source_lens);
    // Beam search's step (8.16) for one sentence, source (1, n): the same cached decoder, its
    // rows reordered by the parents beam search names at each step. Throws
    // std::invalid_argument for a batch of several sentences.
    BeamStep<T> beam_decoder(const IndexMatrix& source, const IndexVector& source_lens);

private:
    // The source encoded once, and a decoder that steps through its key/value cache.
    std::shared_ptr<IncrementalDecoder<T>> start_decoding(const IndexMatrix& source, const IndexVector& source_lens);
};

}  // namespace attn::ch08
