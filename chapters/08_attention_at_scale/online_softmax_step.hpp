// Exercise 08.1: one block of the online softmax, equations (8.2)-(8.3).
#pragma once
#include "common/tensor.hpp"

#include <cstddef>

namespace attn::ch08 {

// What the online softmax remembers of the scores of each row seen so far: two numbers a row.
template <class T>
struct RunningSoftmax {
    Vector<T> max;   // m_i: the largest score of row i so far (-inf before any)
    Vector<T> sum;   // l_i: sum over the scores s of row i so far of exp(s - m_i)
};

// Before the first block: m = -inf and l = 0 for each of `rows` rows.
template <class T>
RunningSoftmax<T> start_softmax(std::size_t rows);

// What one block adds.
template <class T>
struct SoftmaxBlock {
    RunningSoftmax<T> state;   // m', l': the running maximum and sum with this block included
    Matrix<T> weights;         // exp(s_ij - m'_i), (rows, cols): the block's share, not yet divided by l
    Vector<T> rescale;         // exp(m_i - m'_i), (rows): the factor every sum over the earlier blocks
                               // of row i must be multiplied by, now that its maximum is m'_i
};

// One block of scores (rows, cols) of rows whose earlier blocks left `state`:
//   m'_i = max(m_i, max_j s_ij)                                                         (8.2)
//   l'_i = l_i exp(m_i - m'_i) + sum_j exp(s_ij - m'_i)                                  (8.3)
// -> {state m', l', weights exp(s_ij - m'_i), rescale exp(m_i - m'_i)}.
// Scores may be -inf (a blocked key: weight exactly 0). A row whose scores so far are all -inf
// keeps m' = -inf and l' = 0 with weights 0, never NaN (then O = 0: chapter 03's rule).
// `scores` is taken by value: a caller that moves its scores in lends their memory to the
// weights. Throws std::invalid_argument if the block has no column, or if the state does not
// have one max and one sum per row.
template <class T>
SoftmaxBlock<T> online_softmax_step(const RunningSoftmax<T>& state, Matrix<T> scores);

}  // namespace attn::ch08
