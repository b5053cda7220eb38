// Chapter 02's model: chapter 01's encoder, and a decoder that attends over all encoder
// states at every step instead of reading one context vector (Bahdanau et al. 2014).
#pragma once
#include "chapters/01_encoder_decoder/seq2seq.hpp"
#include "chapters/02_bahdanau_attention/attention_decoder_step.hpp"

#include <vector>

namespace attn::ch02 {

template <class T>
class BahdanauSeq2Seq : public ch01::Seq2SeqModel<T> {
public:
    // sizes.hidden is used for the encoder, the decoder and the attention's hidden space.
    BahdanauSeq2Seq(const ch01::ModelSizes& sizes, Rng& rng);
    Var<T> forward(const data::Batch& batch) override;
    ch01::DecodeStep<T> decoder(const IndexMatrix& source, const IndexVector& source_lens) override;
    ch01::ModelSizes sizes() const override { return sizes_; }

    // While true, every decoding step appends its attention weights (batch, S) here, so the
    // alignment of a translation can be drawn.
    bool record_weights = false;
    std::vector<Array<T>> recorded_weights;

    ch01::Encoder<T> encoder;
    struct Decoder : Module<T> {
        Decoder(const ch01::ModelSizes& sizes, Rng& rng);
        Embedding<T> embedding;
        AdditiveAttention<T> attention;
        ch01::GruLayer<T> gru;   // input: embedding (E) joined with the context (H)
        Linear<T> output;
    } decoder_;

private:
    EncoderMemory<T> remember(const IndexMatrix& source, const IndexVector& source_lens, Var<T>& first_state);
    AttentionDecoderLayers<T> layers() const { return {decoder_.attention, decoder_.gru, decoder_.output}; }
    ch01::ModelSizes sizes_;
};

}  // namespace attn::ch02
