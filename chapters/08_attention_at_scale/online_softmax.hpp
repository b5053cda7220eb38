// The online softmax of a whole row (8.1)-(8.4), read block by block with exercise 08.1: the
// same numbers as chapter 00's softmax, from one pass that never needs the row's maximum in
// advance. Part 1 of the chapter shows it at work; the tests of 08.1 hold it to chapter 00.
#pragma once
#include "chapters/08_attention_at_scale/online_softmax_step.hpp"

#include <cstddef>
#include <vector>

namespace attn::ch08 {

// softmax over each row of `scores` (rows, n), the columns taken `block` at a time:
//   p_ij = exp(s_ij - m_i) / l_i   with m, l from (8.2)-(8.3) after the last block        (8.1)
// The weights of the blocks already read are rescaled by exp(m - m') whenever the maximum
// grows (8.4): this is attention whose values are the identity matrix, O = P I = P.
// A row of -inf only gets zero weights (chapter 03's rule), never NaN. Throws
// std::invalid_argument if block is 0 or the rows are empty.
template <class T>
Matrix<T> online_softmax(const Matrix<T>& scores, std::size_t block);

// One step of online_softmax, as part 1 prints it: the block's columns and the state after it.
template <class T>
struct OnlineTrace {
    std::size_t first, last;   // the columns read, first..last-1
    T max, sum, rescale;       // m', l' after the block, and exp(m - m')
};
// The steps of online_softmax over one row (1, n).
template <class T>
std::vector<OnlineTrace<T>> trace_online_softmax(const Matrix<T>& row, std::size_t block);

}  // namespace attn::ch08
