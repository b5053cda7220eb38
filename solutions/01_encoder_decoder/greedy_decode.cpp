// Exercise 01.3: greedy decoding, equation (1.9).
#include "chapters/01_encoder_decoder/greedy_decode.hpp"

namespace attn::ch01 {

// y_0 = <bos>;  y_t = argmax_v step(y_{t-1})[v]  until <eos> or max_len tokens        (1.9)
template <class T>
std::vector<std::vector<std::int64_t>> greedy_decode(const DecodeStep<T>& step, std::size_t batch,
                                                     std::size_t max_len, std::int64_t bos_id, std::int64_t eos_id) {
    std::vector<std::vector<std::int64_t>> outputs(batch);
    std::vector<bool> finished(batch, false);
    IndexVector previous = xt::zeros<std::int64_t>({batch});
    previous.fill(bos_id);                                         // every sequence starts from <bos>
    std::size_t still_running = batch;
    for (std::size_t t = 0; t < max_len && still_running > 0; ++t) {
        const Var<T> logits = step(previous);                      // (batch, vocab)
        for (std::size_t b = 0; b < batch; ++b) {
            const Vector<T> scores = xt::view(logits.value(), b, xt::all());
            const std::int64_t best = static_cast<std::int64_t>(argmax(scores));   // attn::argmax, safe on 1-D
            previous(b) = best;                                    // a finished row's input no longer matters
            if (finished[b]) continue;
            if (best == eos_id) {
                finished[b] = true;
                --still_running;
            } else {
                outputs[b].push_back(best);
            }
        }
    }
    return outputs;
    // Alternative: beam search keeps the k best partial outputs instead of one; greedy is its
    // k = 1 case, and for these tasks it loses little.
}

// ---- instantiations: do not edit ----
template std::vector<std::vector<std::int64_t>> greedy_decode(const DecodeStep<float>&, std::size_t, std::size_t,
                                                              std::int64_t, std::int64_t);
template std::vector<std::vector<std::int64_t>> greedy_decode(const DecodeStep<double>&, std::size_t, std::size_t,
                                                              std::int64_t, std::int64_t);

}  // namespace attn::ch01
