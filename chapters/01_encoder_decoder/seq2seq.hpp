// The encoder-decoder of chapter 01: an embedding and a GRU read the source; a GRU decoder
// writes the target, seeing the encoder's last state (the context vector) at every step.
// Also the interface that training, evaluation and greedy decoding use for any model, so
// chapter 02's attention model runs through the same code.
#pragma once
#include "chapters/01_encoder_decoder/encode.hpp"
#include "chapters/01_encoder_decoder/greedy_decode.hpp"
#include "chapters/01_encoder_decoder/gru.hpp"
#include "common/data/batching.hpp"
#include "common/nn/layers.hpp"

#include <string>

namespace attn::ch01 {

struct ModelSizes {
    std::size_t source_vocab = 0, target_vocab = 0;
    std::size_t embedding = 32, hidden = 128;
};

// What training and evaluation need from a sequence-to-sequence model.
template <class T>
class Seq2SeqModel : public Module<T> {
public:
    // Teacher forcing: the decoder reads batch.target_in (<bos> + y) and returns the scores
    // of every next token, (batch, target_len, target_vocab), to compare with target_out.   (1.8)
    virtual Var<T> forward(const data::Batch& batch) = 0;
    // A decoder step for greedy decoding of these sources (it encodes them first).
    virtual DecodeStep<T> decoder(const IndexMatrix& source, const IndexVector& source_lens) = 0;
    virtual ModelSizes sizes() const = 0;
    // What else a checkpoint must match beyond the sizes (e.g. a Transformer's heads, layers
    // and norm placement, which leave the parameters' shapes alone); "" for the GRU models.
    virtual std::string architecture() const { return ""; }
};

// Embedding + GRU: source ids (batch, seq_len) -> states and final state.
template <class T>
class Encoder : public Module<T> {
public:
    Encoder(const ModelSizes& sizes, Rng& rng);
    EncoderOutput<T> operator()(const IndexMatrix& source, const IndexVector& source_lens) const;

    Embedding<T> embedding;
    GruLayer<T> gru;
};

// Chapter 01's model. The decoder's input at step t is the embedding of y_{t-1} joined with
// the context vector c = the encoder's final state; its first state is c as well.   (1.7)
template <class T>
class ContextSeq2Seq : public Seq2SeqModel<T> {
public:
    ContextSeq2Seq(const ModelSizes& sizes, Rng& rng);
    Var<T> forward(const data::Batch& batch) override;
    DecodeStep<T> decoder(const IndexMatrix& source, const IndexVector& source_lens) override;
    ModelSizes sizes() const override { return sizes_; }

    Encoder<T> encoder;
    struct Decoder : Module<T> {
        Decoder(const ModelSizes& sizes, Rng& rng);
        Embedding<T> embedding;
        GruLayer<T> gru;      // input: embedding (E) joined with the context (H)
        Linear<T> output;     // H -> target vocabulary
    } decoder_;

private:
    ModelSizes sizes_;
};

}  // namespace attn::ch01
