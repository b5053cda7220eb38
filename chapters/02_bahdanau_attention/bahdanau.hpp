// Chapter 02's model: chapter 01's encoder, and a decoder that attends over all encoder
// states at every step instead of reading one context vector (Bahdanau et al. 2014).
#pragma once
#include "chapters/01_encoder_decoder/seq2seq.hpp"
#include "chapters/02_bahdanau_attention/attention_decoder_step.hpp"

#include <functional>
#include <vector>

namespace attn::ch02 {

// What the attention model returns: the scores of the next tokens, and where it looked to
// produce them (the weights a heatmap draws).
template <class T>
struct ModelOutput {
    Var<T> logits;    // (batch, T, vocab) for a whole target; (batch, vocab) for one step
    Var<T> weights;   // alpha: (batch, T, S) for a whole target; (batch, S) for one step
};

// One greedy decoding step (as ch01::DecodeStep) that also returns alpha_t.
template <class T>
using AttentionDecodeStep = std::function<ModelOutput<T>(const IndexVector& previous_tokens)>;

// A sequence-to-sequence model whose decoder attends: its decoding steps also return where
// they looked, which alignment heatmaps draw. Chapter 03's Luong decoder is one too.
template <class T>
class AttentionSeq2Seq : public ch01::Seq2SeqModel<T> {
public:
    // Greedy decoding one step at a time, each step returning {logits, alpha_t}.
    virtual AttentionDecodeStep<T> attention_decoder(const IndexMatrix& source, const IndexVector& source_lens) = 0;
};

template <class T>
class BahdanauSeq2Seq : public AttentionSeq2Seq<T> {
public:
    // sizes.hidden is used for the encoder, the decoder and the attention's hidden space.
    BahdanauSeq2Seq(const ch01::ModelSizes& sizes, Rng& rng);
    // Teacher forcing (1.8) with the attention weights of every step, stacked along T.
    ModelOutput<T> forward_with_weights(const data::Batch& batch);
    Var<T> forward(const data::Batch& batch) override { return forward_with_weights(batch).logits; }
    // Greedy decoding one step at a time, each step returning {logits, alpha_t}.
    AttentionDecodeStep<T> attention_decoder(const IndexMatrix& source, const IndexVector& source_lens) override;
    // The same steps for the shared decoding loop, which only needs the logits.
    ch01::DecodeStep<T> decoder(const IndexMatrix& source, const IndexVector& source_lens) override;
    ch01::ModelSizes sizes() const override { return sizes_; }

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
