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
    // TODO(08.1): for each row i, the new running maximum m'_i (8.2); the block's weights
    //             exp(s_ij - m'_i) and the rescale exp(m_i - m'_i) of what earlier blocks
    //             summed; the new running sum l'_i (8.3). Return {state {m', l'}, weights,
    //             rescale}. A row that has seen only -inf scores must give weights 0, l' = 0
    //             and no NaN. Stuck? ./course hint 08.1
    COURSE_TODO("08.1");
}

// ---- instantiations: do not edit ----
template SoftmaxBlock<float> online_softmax_step(const RunningSoftmax<float>&, Matrix<float>);
template SoftmaxBlock<double> online_softmax_step(const RunningSoftmax<double>&, Matrix<double>);

}  // namespace attn::ch08
