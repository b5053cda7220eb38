// The online softmax of whole rows, block by block (online_softmax.hpp), on exercise 08.1.
#include "chapters/08_attention_at_scale/online_softmax.hpp"

#include "chapters/08_attention_at_scale/tiles.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace attn::ch08 {

template <class T>
RunningSoftmax<T> start_softmax(std::size_t rows) {
    RunningSoftmax<T> state{Vector<T>::from_shape({rows}), xt::zeros<T>({rows})};   // l = 0
    state.max.fill(-std::numeric_limits<T>::infinity());                              // m = -inf
    return state;
}

namespace {

void check_block(const char* who, std::size_t n, std::size_t block) {
    if (block == 0 || n == 0)
        throw std::invalid_argument(std::string(who) + ": needs a block size >= 1 and rows of at least one score, got "
                                    "block " + std::to_string(block) + " and rows of " + std::to_string(n));
}

}  // namespace

template <class T>
Matrix<T> online_softmax(const Matrix<T>& scores, std::size_t block) {
    const std::size_t rows = scores.shape(0), n = scores.shape(1);
    check_block("online_softmax", n, block);
    RunningSoftmax<T> state = start_softmax<T>(rows);
    Matrix<T> P = xt::zeros<T>({rows, n});   // (rows, n): exp(s_ij - m_i) for the columns read so far
    for (std::size_t k0 = 0; k0 < n; k0 += block) {
        const std::size_t k1 = std::min(k0 + block, n);
        SoftmaxBlock<T> step = online_softmax_step(state, Matrix<T>(xt::view(scores, xt::all(), xt::range(k0, k1))));
        P *= as_column(step.rescale);                              // the earlier columns, now relative to m'   (8.4)
        xt::view(P, xt::all(), xt::range(k0, k1)) = step.weights;   // this block's share
        state = std::move(step.state);
    }
    // p = exp(s - m) / l (8.1); a row that saw only -inf has l = 0 and keeps its zeros.
    const Vector<T> inverse_sum = xt::where(state.sum > T(0), T(1) / state.sum, T(0));
    return P * as_column(inverse_sum);
}

template <class T>
std::vector<OnlineTrace<T>> trace_online_softmax(const Matrix<T>& row, std::size_t block) {
    const std::size_t n = row.shape(1);
    check_block("trace_online_softmax", n, block);
    std::vector<OnlineTrace<T>> steps;
    RunningSoftmax<T> state = start_softmax<T>(1);
    for (std::size_t k0 = 0; k0 < n; k0 += block) {
        const std::size_t k1 = std::min(k0 + block, n);
        SoftmaxBlock<T> step = online_softmax_step(state, Matrix<T>(xt::view(row, xt::range(0, 1), xt::range(k0, k1))));
        state = std::move(step.state);
        steps.push_back({k0, k1, state.max(0), state.sum(0), step.rescale(0)});
    }
    return steps;
}

// ---- instantiations: do not edit ----
template RunningSoftmax<float> start_softmax(std::size_t);
template RunningSoftmax<double> start_softmax(std::size_t);
template Matrix<float> online_softmax(const Matrix<float>&, std::size_t);
template Matrix<double> online_softmax(const Matrix<double>&, std::size_t);
template std::vector<OnlineTrace<double>> trace_online_softmax(const Matrix<double>&, std::size_t);

}  // namespace attn::ch08
