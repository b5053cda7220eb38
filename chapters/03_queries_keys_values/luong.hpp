// A Luong-style attention decoder (Luong et al. 2015, "global attention"), built from this
// chapter's layer: the decoder's GRU runs first, and its *current* state s_t is the query
// that scores the encoder states; the context and s_t are then combined by one layer before
// the output:
//   s_t = GRU(embedding(y_{t-1}), s_{t-1})
//   c_t, alpha_t = attention(s_t, keys, encoder states, source mask)      (3.5)-(3.8)
//   h~_t = tanh(W_c [c_t; s_t]),  logits_t = W_o h~_t                       (3.11)
// with keys = the encoder states (score "dot": s_t . h_j / sqrt(H)) or W_a h_j ("general":
// s_t^T W_a h_j / sqrt(H), W_a learned, projected once per sentence).
// Because the query no longer feeds the GRU, teacher forcing runs the GRU over the target
// first and then attends for every step at once: one batched product instead of T.
#pragma once
#include "chapters/01_encoder_decoder/seq2seq.hpp"
#include "chapters/02_bahdanau_attention/bahdanau.hpp"
#include "chapters/03_queries_keys_values/attention.hpp"

#include <optional>
#include <string>

namespace attn::ch03 {

enum class LuongScore { dot, general };
LuongScore parse_luong_score(const std::string& name);   // "dot" or "general"; throws otherwise
std::string to_string(LuongScore score);

template <class T>
class LuongSeq2Seq : public ch02::AttentionSeq2Seq<T> {
public:
    LuongSeq2Seq(const ch01::ModelSizes& sizes, LuongScore score, Rng& rng);
    // Teacher forcing with the weights of every step: logits (batch, T, vocab), weights (batch, T, S).
    ch02::ModelOutput<T> forward_with_weights(const data::Batch& batch);
    Var<T> forward(const data::Batch& batch) override { return forward_with_weights(batch).logits; }
    // Greedy decoding one step at a time, each step returning {logits (batch, vocab), alpha_t (batch, S)}.
    ch02::AttentionDecodeStep<T> attention_decoder(const IndexMatrix& source, const IndexVector& source_lens) override;
    ch01::DecodeStep<T> decoder(const IndexMatrix& source, const IndexVector& source_lens) override;
    ch01::ModelSizes sizes() const override { return sizes_; }
    LuongScore score() const { return score_; }

    ch01::Encoder<T> encoder;
    struct Decoder : Module<T> {
        Decoder(const ch01::ModelSizes& sizes, LuongScore score, Rng& rng);
        Embedding<T> embedding;
        ch01::GruLayer<T> gru;             // input: the embedding (E) alone
        std::optional<Linear<T>> W_a;      // "general" only: H -> H, no bias
        Linear<T> W_c;                     // [c_t; s_t] (2H) -> H
        Linear<T> output;                  // H -> target vocabulary
    } decoder_;

private:
    struct Memory {
        Var<T> states, keys;                    // (batch, S, H) each
        IndexVector source_lens;
        Var<T> first_state;                     // (batch, H): the encoder's final state
    };
    Memory remember(const IndexMatrix& source, const IndexVector& source_lens) const;
    // (3.11) for queries (batch, n, H) whose padded keys `padding` blocks (length_mask of the
    // source lengths, (batch, n, S)): {logits (batch, n, vocab), weights (batch, n, S)}.
    ch02::ModelOutput<T> attend_and_predict(const Var<T>& queries, const Memory& memory, const Mask& padding) const;

    ch01::ModelSizes sizes_;
    LuongScore score_;
};

}  // namespace attn::ch03
