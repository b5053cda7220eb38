// Chapter 01's encoder-decoder (see seq2seq.hpp).
#include "chapters/01_encoder_decoder/seq2seq.hpp"

#include "chapters/01_encoder_decoder/gru_cell.hpp"
#include "common/autodiff/ops.hpp"

namespace attn::ch01 {

template <class T>
Encoder<T>::Encoder(const ModelSizes& sizes, Rng& rng)
    : embedding(sizes.source_vocab, sizes.embedding, rng), gru(sizes.embedding, sizes.hidden, rng) {
    this->register_module("embedding", embedding);
    this->register_module("gru", gru);
}

template <class T>
EncoderOutput<T> Encoder<T>::operator()(const IndexMatrix& source, const IndexVector& source_lens) const {
    return encode(embedding(source), source_lens, gru);   // (batch, seq_len, E) -> (1.6)
}

template <class T>
ContextSeq2Seq<T>::Decoder::Decoder(const ModelSizes& sizes, Rng& rng)
    : embedding(sizes.target_vocab, sizes.embedding, rng),
      gru(sizes.embedding + sizes.hidden, sizes.hidden, rng),
      output(sizes.hidden, sizes.target_vocab, rng) {
    this->register_module("embedding", embedding);
    this->register_module("gru", gru);
    this->register_module("output", output);
}

template <class T>
ContextSeq2Seq<T>::ContextSeq2Seq(const ModelSizes& sizes, Rng& rng)
    : encoder(sizes, rng), decoder_(sizes, rng), sizes_(sizes) {
    this->register_module("encoder", encoder);
    this->register_module("decoder", decoder_);
}

template <class T>
Var<T> ContextSeq2Seq<T>::forward(const data::Batch& batch) {
    const EncoderOutput<T> encoded = encoder(batch.source, batch.source_lens);
    const std::size_t n = batch.target_in.shape(0), steps = batch.target_in.shape(1), H = sizes_.hidden;
    const Var<T> embedded = decoder_.embedding(batch.target_in);                         // (batch, T, E)
    const Var<T> context = expand(reshape(encoded.final, {n, 1, H}), {n, steps, H});     // c at every step
    const Var<T> x_gates = decoder_.gru.project_inputs(concat<T>({embedded, context}, 2));   // (batch, T, 3H)  (1.7)
    Var<T> s = encoded.final;                                                            // s_0 = c
    std::vector<Var<T>> states;
    for (std::size_t t = 0; t < steps; ++t) {
        s = gru_cell(select(x_gates, 1, t), s, decoder_.gru);   // step t: (batch, 3H)
        states.push_back(s);
    }
    return decoder_.output(stack(states, 1));                                           // (batch, T, vocab)  (1.8)
}

template <class T>
DecodeStep<T> ContextSeq2Seq<T>::decoder(const IndexMatrix& source, const IndexVector& source_lens) {
    const EncoderOutput<T> encoded = encoder(source, source_lens);
    // The step keeps the decoder state s between calls; c never changes.
    return [this, context = encoded.final, s = encoded.final](const IndexVector& previous) mutable {
        const Var<T> x = concat<T>({decoder_.embedding(previous), context}, 1);   // (batch, E + H)
        s = gru_cell(decoder_.gru.project_inputs(x), s, decoder_.gru);
        return decoder_.output(s);                                              // (batch, vocab)
    };
}

template class Encoder<float>;
template class Encoder<double>;
template class ContextSeq2Seq<float>;
template class ContextSeq2Seq<double>;

}  // namespace attn::ch01
