// Exercise 01.3: greedy decoding, equation (1.9).
#include "chapters/01_encoder_decoder/greedy_decode.hpp"

namespace attn::ch01 {

// y_0 = <bos>;  y_t = argmax_v step(y_{t-1})[v]  until <eos> or max_len tokens        (1.9)
template <class T>
std::vector<std::vector<std::int64_t>> greedy_decode(const DecodeStep<T>& step, std::size_t batch,
                                                     std::size_t max_len, std::int64_t bos_id, std::int64_t eos_id) {
    // TODO(01.3): start every sequence from bos_id; at each step call step(previous), take each row's
    //            argmax (attn::argmax), append it unless it is eos_id (which finishes that row),
    //            and stop after max_len steps or when every row has finished (1.9).
    //            Hint: ./course hint 01.3
    COURSE_TODO("01.3");
}

// ---- instantiations: do not edit ----
template std::vector<std::vector<std::int64_t>> greedy_decode(const DecodeStep<float>&, std::size_t, std::size_t,
                                                              std::int64_t, std::int64_t);
template std::vector<std::vector<std::int64_t>> greedy_decode(const DecodeStep<double>&, std::size_t, std::size_t,
                                                              std::int64_t, std::int64_t);

}  // namespace attn::ch01
