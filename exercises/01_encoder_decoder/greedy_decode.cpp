// Exercise 01.3: greedy decoding, equation (1.9).
#include "chapters/01_encoder_decoder/greedy_decode.hpp"

namespace attn::ch01 {

// y_0 = <bos>;  y_t = argmax_v step(y_{t-1})[v]  until <eos> or max_len tokens        (1.9)
template <class T>
std::vector<std::vector<std::int64_t>> greedy_decode(const DecodeStep<T>& step, std::size_t batch,
                                                     std::size_t max_len, std::int64_t bos_id, std::int64_t eos_id) {
    // TODO(01.3): return one token list per row of the batch, decoded by (1.9): from bos_id, the
    //             most likely next token each step, fed back as the next input; a row ends at
    //             eos_id (not kept), all rows end after max_len steps, and step is not called
    //             once every row has ended. Stuck? ./course hint 01.3
    COURSE_TODO("01.3");
}

// ---- instantiations: do not edit ----
template std::vector<std::vector<std::int64_t>> greedy_decode(const DecodeStep<float>&, std::size_t, std::size_t,
                                                              std::int64_t, std::int64_t);
template std::vector<std::vector<std::int64_t>> greedy_decode(const DecodeStep<double>&, std::size_t, std::size_t,
                                                              std::int64_t, std::int64_t);

}  // namespace attn::ch01
