// Chapter 02's attention model (see bahdanau.hpp).
#include "chapters/02_bahdanau_attention/bahdanau.hpp"

#include "common/autodiff/ops.hpp"

namespace attn::ch02 {

template <class T>
BahdanauSeq2Seq<T>::Decoder::Decoder(const ch01::ModelSizes& sizes, Rng& rng)
    : embedding(sizes.target_vocab, sizes.embedding, rng),
      attention(sizes.hidden, sizes.hidden, sizes.hidden, rng),
      gru(sizes.embedding + sizes.hidden, sizes.hidden, rng),
      output(sizes.hidden, sizes.target_vocab, rng) {
    this->register_module("embedding", embedding);
    this->register_module("attention", attention);
    this->register_module("gru", gru);
    this->register_module("output", output);
}

template <class T>
BahdanauSeq2Seq<T>::BahdanauSeq2Seq(const ch01::ModelSizes& sizes, Rng& rng)
    : encoder(sizes, rng), decoder_(sizes, rng), sizes_(sizes) {
    this->register_module("encoder", encoder);
    this->register_module("decoder", decoder_);
}

template <class T>
EncoderMemory<T> BahdanauSeq2Seq<T>::remember(const IndexMatrix& source, const IndexVector& source_lens,
                                              Var<T>& first_state) {
    const ch01::EncoderOutput<T> encoded = encoder(source, source_lens);
    first_state = encoded.final;   // s_0: the decoder starts where the encoder ended, as in chapter 01
    return {encoded.states, decoder_.attention.project_keys(encoded.states), source_lens};   // keys once (2.1)
}

template <class T>
ModelOutput<T> BahdanauSeq2Seq<T>::forward_with_weights(const data::Batch& batch) {
    Var<T> s;
    const EncoderMemory<T> memory = remember(batch.source, batch.source_lens, s);
    const std::size_t steps = batch.target_in.shape(1);
    const Var<T> embedded = decoder_.embedding(batch.target_in);   // (batch, T, E), all steps at once
    std::vector<Var<T>> logits, weights;
    for (std::size_t t = 0; t < steps; ++t) {
        const DecoderStepOutput<T> step =
            attention_decoder_step(select(embedded, 1, t), s, memory, layers());   // e_{t-1}: (batch, E)
        s = step.state;
        logits.push_back(step.logits);
        weights.push_back(step.weights);
    }
    return {stack(logits, 1), stack(weights, 1)};   // (batch, T, vocab), (batch, T, S)
}

template <class T>
AttentionDecodeStep<T> BahdanauSeq2Seq<T>::attention_decoder(const IndexMatrix& source, const IndexVector& source_lens) {
    Var<T> s;
    const EncoderMemory<T> memory = remember(source, source_lens, s);
    return [this, memory, s](const IndexVector& previous) mutable {
        const DecoderStepOutput<T> step = attention_decoder_step(decoder_.embedding(previous), s, memory, layers());
        s = step.state;
        return ModelOutput<T>{step.logits, step.weights};
    };
}

template <class T>
ch01::DecodeStep<T> BahdanauSeq2Seq<T>::decoder(const IndexMatrix& source, const IndexVector& source_lens) {
    AttentionDecodeStep<T> step = attention_decoder(source, source_lens);
    return [step](const IndexVector& previous) mutable { return step(previous).logits; };
}

template class BahdanauSeq2Seq<float>;
template class BahdanauSeq2Seq<double>;

}  // namespace attn::ch02
