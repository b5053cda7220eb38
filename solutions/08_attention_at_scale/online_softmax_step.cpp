// Exercise 08.1: one block of the online softmax, equations (8.2)-(8.3).
#include "chapters/08_attention_at_scale/online_softmax_step.hpp"

#include "common/row_math.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace attn::ch08 {

// m'_i = max(m_i, max_j s_ij),  l'_i = l_i exp(m_i - m'_i) + sum_j exp(s_ij - m'_i)      (8.2)-(8.3)
// scores (rows, cols) -> weights exp(s_ij - m'_i) (rows, cols), rescale exp(m_i - m'_i) (rows)
template <class T>
SoftmaxBlock<T> online_softmax_step(const RunningSoftmax<T>& state, Matrix<T> scores) {
    const std::size_t rows = scores.shape(0), cols = scores.shape(1);
    if (cols == 0 || state.max.size() != rows || state.sum.size() != rows)
        throw std::invalid_argument("online_softmax_step: expected a block of scores (rows, cols) with cols >= 1 and a "
                                    "state of `rows` maxima and sums, got scores (" + std::to_string(rows) + ", " +
                                    std::to_string(cols) + "), " + std::to_string(state.max.size()) + " maxima, " +
                                    std::to_string(state.sum.size()) + " sums");
    const T minus_infinity = -std::numeric_limits<T>::infinity();
    SoftmaxBlock<T> block{start_softmax<T>(rows), Matrix<T>(), Vector<T>::from_shape({rows})};
    // Row by row through the toolkit's vectorized loops, as chapter 00's softmax; the scores'
    // memory becomes the weights', so a block costs no new n_q x n_k array.
    for (std::size_t i = 0; i < rows; ++i) {
        T* s = &scores(i, 0);
        const T m_new = std::max(state.max(i), row_math::max(s, cols));                       // (8.2)
        // While a row has seen only -inf, m' is -inf too, and s - m' would be -inf - (-inf) =
        // NaN: shifting by 0 instead gives exp(-inf) = 0 for every weight, and l' stays 0.
        const T shift = m_new == minus_infinity ? T(0) : m_new;
        row_math::exp_minus(s, shift, s, cols);                                               // exp(s_ij - m'_i)
        // exp(m - m') <= 1: 1 when the maximum did not grow, 0 on a row's first finite block (m = -inf).
        block.rescale(i) = std::exp(state.max(i) - shift);
        block.state.sum(i) = state.sum(i) * block.rescale(i) + row_math::sum(s, cols);       // (8.3)
        block.state.max(i) = m_new;
    }
    block.weights = std::move(scores);
    return block;
    // An instructive alternative keeps the earlier sums relative to the first block's maximum
    // and never rescales them; it is right until a later score exceeds that maximum by about
    // 88 (float): exp overflows. Rescaling whenever the maximum grows keeps every exponent <= 0.
}

// ---- instantiations: do not edit ----
template SoftmaxBlock<float> online_softmax_step(const RunningSoftmax<float>&, Matrix<float>);
template SoftmaxBlock<double> online_softmax_step(const RunningSoftmax<double>&, Matrix<double>);

}  // namespace attn::ch08
