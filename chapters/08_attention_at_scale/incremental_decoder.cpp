// The incremental decoder: one position per step through the key/value cache (8.15).
#include "chapters/08_attention_at_scale/incremental_decoder.hpp"

#include "common/autodiff/ops.hpp"

#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace attn::ch08 {

template <class T>
template <class Decoder>
IncrementalDecoder<T>::IncrementalDecoder(const Decoder& decoder, const Var<T>& memory, const ch03::Mask& memory_padding,
                                          Embed embed, Scores scores)
    : stack_step_([&decoder](const Var<T>& y_t, const DecoderCache<T>& cache) {
          return decoder_stack_step(decoder, y_t, cache);
      }),
      cache_(start_cache(decoder, memory, memory_padding)),
      tokens_(IndexMatrix::from_shape({memory.shape(0), 0})),
      embed_(std::move(embed)),
      scores_(std::move(scores)) {}

template <class T>
Var<T> IncrementalDecoder<T>::step(const IndexVector& previous_tokens, const std::vector<std::size_t>& parents) {
    const std::size_t rows = previous_tokens.size(), t = length();
    if (parents.size() != rows)
        throw std::invalid_argument("IncrementalDecoder::step: " + std::to_string(rows) + " previous tokens but " +
                                    std::to_string(parents.size()) + " parents");
    // Every row continuing itself (greedy decoding) keeps the cache as it is; otherwise each
    // row takes its parent's (reorder throws if a parent does not exist).
    std::vector<std::size_t> itself(rows);
    std::iota(itself.begin(), itself.end(), std::size_t(0));
    if (parents != itself || rows != cache_.batch) cache_ = reorder(cache_, parents);
    IndexMatrix tokens = IndexMatrix::from_shape({rows, t + 1});   // each row's parent's tokens, then its own
    for (std::size_t i = 0; i < rows; ++i) {
        for (std::size_t j = 0; j < t; ++j) tokens(i, j) = tokens_(parents[i], j);
        tokens(i, t) = previous_tokens(i);
    }
    tokens_ = std::move(tokens);
    // Embedding the whole prefix costs t rows of a table lookup; it gives the new position
    // its own positional code. Only that last position enters the decoder.
    const Var<T> y_t = slice(embed_(tokens_), 1, t, t + 1);                   // (rows, 1, d)
    DecoderStep<T> stepped = stack_step_(y_t, cache_);                           // (8.15)
    cache_ = std::move(stepped.cache);
    const Var<T> logits = scores_(stepped.output);                               // (rows, 1, vocab)
    return reshape(logits, {rows, logits.shape(2)});                             // (rows, vocab)
}

template <class T>
Var<T> IncrementalDecoder<T>::step(const IndexVector& previous_tokens) {
    std::vector<std::size_t> itself(previous_tokens.size());
    std::iota(itself.begin(), itself.end(), std::size_t(0));
    return step(previous_tokens, itself);
}

#define ATTN_INSTANTIATE(T)                                                                                        \
    template class IncrementalDecoder<T>;                                                                         \
    template IncrementalDecoder<T>::IncrementalDecoder(const ch07::TransformerDecoder<T>&, const Var<T>&,          \
                                                       const ch03::Mask&, Embed, Scores);                         \
    template IncrementalDecoder<T>::IncrementalDecoder(const GroupedDecoder<T>&, const Var<T>&, const ch03::Mask&, \
                                                       Embed, Scores);
ATTN_INSTANTIATE(float)
ATTN_INSTANTIATE(double)

}  // namespace attn::ch08
