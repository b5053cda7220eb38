// A decoder that translates one position at a time through its key/value cache (8.15), as the
// step that chapter 01's greedy decoding and beam search (8.16) call: it keeps the cache and
// the tokens fed so far, and reorders both when beam search says which row each new row continues.
#pragma once
#include "chapters/08_attention_at_scale/kv_cache.hpp"
#include "common/tensor.hpp"

#include <functional>
#include <vector>

namespace attn::ch08 {

template <class T>
class IncrementalDecoder {
public:
    // The model's two ends around the decoder: `embed` turns the tokens so far (rows, t)
    // into decoder inputs (rows, t, d) (embeddings and positions; only the last position is
    // used, so that it gets position t - 1), `scores` turns decoder outputs (rows, 1, d) into
    // logits (rows, 1, vocab).
    using Embed = std::function<Var<T>(const IndexMatrix& tokens)>;
    using Scores = std::function<Var<T>(const Var<T>& decoded)>;

    // decoder: chapter 07's TransformerDecoder or a GroupedDecoder (its cache then holds G
    // key/value heads). memory (batch, n, d) and memory_padding (batch, n) or no_mask(): the
    // encoder's output. The decoder must outlive this object.
    template <class Decoder>
    IncrementalDecoder(const Decoder& decoder, const Var<T>& memory, const ch03::Mask& memory_padding, Embed embed,
                       Scores scores);

    // Feeds previous_tokens (rows): new row i continues row parents[i] of the previous step
    // (the first step: parents all 0, rows = batch or any number of copies of a one-sentence
    // batch). -> the next token's logits (rows, vocab).
    Var<T> step(const IndexVector& previous_tokens, const std::vector<std::size_t>& parents);
    // Every row continues itself (greedy decoding of a batch).
    Var<T> step(const IndexVector& previous_tokens);

    std::size_t length() const { return tokens_.shape(1); }   // positions fed so far
    const DecoderCache<T>& cache() const { return cache_; }

private:
    std::function<DecoderStep<T>(const Var<T>& y_t, const DecoderCache<T>& cache)> stack_step_;   // decoder_stack_step
    DecoderCache<T> cache_;
    IndexMatrix tokens_;   // (rows, t): what each row has been fed, <bos> first
    Embed embed_;
    Scores scores_;
};

}  // namespace attn::ch08
