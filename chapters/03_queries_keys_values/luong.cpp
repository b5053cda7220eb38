// The Luong-style attention decoder (see luong.hpp).
#include "chapters/03_queries_keys_values/luong.hpp"

#include "chapters/01_encoder_decoder/gru_cell.hpp"
#include "chapters/03_queries_keys_values/length_mask.hpp"
#include "chapters/03_queries_keys_values/scaled_dot_product_attention.hpp"
#include "common/autodiff/ops.hpp"

#include <stdexcept>

namespace attn::ch03 {

LuongScore parse_luong_score(const std::string& name) {
    if (name == "dot") return LuongScore::dot;
    if (name == "general") return LuongScore::general;
    throw std::invalid_argument("a Luong score must be dot or general, got '" + name + "'");
}

std::string to_string(LuongScore score) { return score == LuongScore::dot ? "dot" : "general"; }

template <class T>
LuongSeq2Seq<T>::Decoder::Decoder(const ch01::ModelSizes& sizes, LuongScore score, Rng& rng)
    : embedding(sizes.target_vocab, sizes.embedding, rng),
      gru(sizes.embedding, sizes.hidden, rng),
      W_a(score == LuongScore::general ? std::optional<Linear<T>>(std::in_place, sizes.hidden, sizes.hidden, rng, false)
                                       : std::nullopt),
      W_c(2 * sizes.hidden, sizes.hidden, rng),
      output(sizes.hidden, sizes.target_vocab, rng) {
    this->register_module("embedding", embedding);
    this->register_module("gru", gru);
    if (W_a) this->register_module("W_a", *W_a);
    this->register_module("W_c", W_c);
    this->register_module("output", output);
}

template <class T>
LuongSeq2Seq<T>::LuongSeq2Seq(const ch01::ModelSizes& sizes, LuongScore score, Rng& rng)
    : encoder(sizes, rng), decoder_(sizes, score, rng), sizes_(sizes), score_(score) {
    this->register_module("encoder", encoder);
    this->register_module("decoder", decoder_);
}

template <class T>
typename LuongSeq2Seq<T>::Memory LuongSeq2Seq<T>::remember(const IndexMatrix& source,
                                                           const IndexVector& source_lens) const {
    const ch01::EncoderOutput<T> encoded = encoder(source, source_lens);
    // The keys do not change while the decoder runs: project them once per sentence.
    const Var<T> keys = decoder_.W_a ? (*decoder_.W_a)(encoded.states) : encoded.states;
    return {encoded.states, keys, source_lens, encoded.final};
}

template <class T>
ch02::ModelOutput<T> LuongSeq2Seq<T>::attend_and_predict(const Var<T>& queries, const Memory& memory,
                                                         const Mask& padding) const {
    const Attention<T> attended = scaled_dot_product_attention(queries, memory.keys, memory.states, padding);
    const Var<T> combined = tanh(decoder_.W_c(concat<T>({attended.output, queries}, 2)));   // h~ (3.11)
    return {decoder_.output(combined), attended.weights};
}

template <class T>
ch02::ModelOutput<T> LuongSeq2Seq<T>::forward_with_weights(const data::Batch& batch) {
    const Memory memory = remember(batch.source, batch.source_lens);
    // The GRU first, over the whole target (teacher forcing) ...
    const Var<T> x_gates = decoder_.gru.project_inputs(decoder_.embedding(batch.target_in));   // (batch, T, 3H)
    Var<T> s = memory.first_state;
    std::vector<Var<T>> states;
    for (std::size_t t = 0; t < x_gates.shape(1); ++t) {
        s = ch01::gru_cell(select(x_gates, 1, t), s, decoder_.gru);
        states.push_back(s);
    }
    // ... then every step's attention in one batched product: queries (batch, T, H).
    const Mask padding = length_mask(xt::xarray<std::int64_t>(batch.source_lens), states.size(), memory.states.shape(1));
    return attend_and_predict(stack(states, 1), memory, padding);
}

template <class T>
ch02::AttentionDecodeStep<T> LuongSeq2Seq<T>::attention_decoder(const IndexMatrix& source,
                                                                const IndexVector& source_lens) {
    const Memory memory = remember(source, source_lens);
    // One query per step: the same (batch, 1, S) mask every step, so it is built once.
    const Mask padding = length_mask(xt::xarray<std::int64_t>(source_lens), 1, memory.states.shape(1));
    Var<T> s = memory.first_state;
    return [this, memory, padding, s](const IndexVector& previous) mutable {
        const Var<T> x_gates = decoder_.gru.project_inputs(decoder_.embedding(previous));   // (batch, 3H)
        s = ch01::gru_cell(x_gates, s, decoder_.gru);
        const std::size_t batch = s.shape(0), hidden = s.shape(1);
        const ch02::ModelOutput<T> step = attend_and_predict(reshape(s, {batch, 1, hidden}), memory, padding);
        return ch02::ModelOutput<T>{select(step.logits, 1, 0), select(step.weights, 1, 0)};
    };
}

template <class T>
ch01::DecodeStep<T> LuongSeq2Seq<T>::decoder(const IndexMatrix& source, const IndexVector& source_lens) {
    ch02::AttentionDecodeStep<T> step = attention_decoder(source, source_lens);
    return [step](const IndexVector& previous) mutable { return step(previous).logits; };
}

template class LuongSeq2Seq<float>;
template class LuongSeq2Seq<double>;

}  // namespace attn::ch03
