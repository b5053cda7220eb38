// Chapter 00's softmax and its backward, registered as a differentiable op (see softmax_op.hpp).
#include "chapters/00_foundations/softmax_op.hpp"

#include "chapters/00_foundations/softmax.hpp"
#include "chapters/00_foundations/softmax_backward.hpp"

#include <stdexcept>

namespace attn::ch00 {

namespace {

// A tensor (..., n) seen as a matrix with one row per softmax: (everything else, n). A copy,
// for tensors the op may only read.
template <class T>
Matrix<T> as_rows(const Array<T>& a) {
    const std::size_t n = a.shape(a.dimension() - 1);
    Matrix<T> rows = Matrix<T>::from_shape({a.size() / n, n});   // (rows, n)
    std::copy(a.data(), a.data() + a.size(), rows.data());
    return rows;
}

// Runs `f` on the tensor's numbers seen as (rows, n) without copying them (attention's
// scores are n_q x n_k numbers): the tensor lends its buffer to the matrix for the call and
// takes it back afterwards, also when f throws.
template <class T, class F>
Matrix<T> on_rows(Array<T>& tensor, F&& f) {
    const Shape shape(tensor.shape().begin(), tensor.shape().end());
    const std::size_t n = shape.back();
    tensor.reshape({tensor.size() / n, n});
    Matrix<T> rows(std::move(tensor));
    struct GiveBack {
        Array<T>& tensor;
        Matrix<T>& rows;
        const Shape& shape;
        ~GiveBack() {
            tensor = Array<T>(std::move(rows));
            tensor.reshape(shape);
        }
    } give_back{tensor, rows, shape};
    return f(static_cast<const Matrix<T>&>(rows));
}

// The rows handed back in the shape of `like`: the numbers move, nothing is copied.
template <class T>
Array<T> with_shape(Matrix<T>&& rows, const Array<T>& like) {
    Array<T> out(std::move(rows));
    out.reshape(like.shape());
    return out;
}

}  // namespace

template <class T>
Var<T> softmax(const Var<T>& scores) {
    if (scores.dim() == 0 || scores.shape(scores.dim() - 1) == 0)
        throw std::invalid_argument("softmax: needs a non-empty last axis, got " + shape_string(scores.shape()));
    Matrix<T> Y = on_rows(scores.node()->value, [](const Matrix<T>& X) { return softmax(X); });   // (0.2), exercise 00.1
    // The output Var keeps the only lasting copy of Y: backward reads it back from `saved`.
    return custom_op<T>("softmax", with_shape(std::move(Y), scores.value()), {scores},
                        [](const SavedValues<T>& saved, const Array<T>& dweights) {
                            const Array<T>& weights = saved.output();
                            Matrix<T> dX = softmax_backward(as_rows(weights), as_rows(dweights));   // (0.5), exercise 00.2
                            return std::vector<Array<T>>{with_shape(std::move(dX), weights)};
                        });
}

// ---- instantiations: do not edit ----
template Var<float> softmax(const Var<float>&);
template Var<double> softmax(const Var<double>&);

}  // namespace attn::ch00
