// Sums, means and maxima over all entries or one axis, and their gradients (see ops.hpp).
#include "common/autodiff/kernels.hpp"
#include "common/autodiff/ops.hpp"

namespace attn {

using kernels::AxisView;
using kernels::around_axis;

namespace {

Shape reduced_shape(const Shape& shape, std::size_t axis, bool keep_dims) {
    Shape out = shape;
    if (keep_dims) out[axis] = 1;
    else out.erase(out.begin() + static_cast<std::ptrdiff_t>(axis));
    return out;
}

void check_axis(const char* op, const Shape& shape, std::size_t axis) {
    if (axis >= shape.size()) throw std::invalid_argument(kernels::axis_error(op, axis, shape));
}

// sum over `axis` times `scale`: out[o, i] = scale * sum_j x[o, j, i]
template <class T>
Array<T> scaled_axis_sum(const Array<T>& x, std::size_t axis, bool keep_dims, T scale) {
    const Shape shape = kernels::shape_of(x);
    const AxisView v = around_axis(shape, axis);
    Array<T> out = xt::zeros<T>(reduced_shape(shape, axis, keep_dims));
    const T* in = x.data();
    T* o = out.data();
    for (std::size_t a = 0; a < v.outer; ++a)
        for (std::size_t j = 0; j < v.length; ++j)
            for (std::size_t i = 0; i < v.inner; ++i) o[a * v.inner + i] += in[(a * v.length + j) * v.inner + i];
    for (std::size_t k = 0; k < out.size(); ++k) o[k] *= scale;
    return out;
}

// The gradient of a scaled axis sum: every x[o, j, i] receives scale * dout[o, i].
template <class T>
Array<T> spread_over_axis(const Array<T>& dout, const Shape& shape, std::size_t axis, T scale) {
    const AxisView v = around_axis(shape, axis);
    Array<T> g = kernels::empty_array<T>(shape);
    const T* d = dout.data();
    T* out = g.data();
    for (std::size_t a = 0; a < v.outer; ++a)
        for (std::size_t j = 0; j < v.length; ++j)
            for (std::size_t i = 0; i < v.inner; ++i) out[(a * v.length + j) * v.inner + i] = scale * d[a * v.inner + i];
    return g;
}

template <class T>
Var<T> scaled_sum(const Var<T>& x, std::size_t axis, bool keep_dims, T scale, const char* op) {
    check_axis(op, x.shape(), axis);
    Array<T> out = scaled_axis_sum(x.value(), axis, keep_dims, scale);
    return record_op<T>(op, std::move(out), {x}, Reads::nothing, [=](Node<T>& self) {
        // out[o, i] = scale * sum_j x[o, j, i]:  dx[o, j, i] = scale * dout[o, i]
        Node<T>& in = *self.inputs[0];
        accumulate_grad(in, spread_over_axis(self.grad, kernels::shape_of(in.value), axis, scale));
    });
}

template <class T>
Var<T> scaled_total(const Var<T>& x, T scale, const char* op) {
    T total = 0;
    for (std::size_t k = 0; k < x.size(); ++k) total += x.value().data()[k];
    Array<T> out = xt::zeros<T>(Shape{});
    out() = scale * total;
    return record_op<T>(op, std::move(out), {x}, Reads::nothing, [scale](Node<T>& self) {
        // out = scale * sum_k x[k]:  dx[k] = scale * dout
        Node<T>& in = *self.inputs[0];
        Array<T> g = xt::zeros<T>(in.value.shape());
        g.fill(scale * self.grad.data()[0]);
        accumulate_grad(in, std::move(g));
    });
}

}  // namespace

template <class T> Var<T> sum(const Var<T>& x) { return scaled_total(x, T(1), "sum"); }

template <class T>
Var<T> mean(const Var<T>& x) {
    if (x.size() == 0) throw std::invalid_argument("mean: the tensor is empty");
    return scaled_total(x, T(1) / static_cast<T>(x.size()), "mean");
}

template <class T>
Var<T> sum(const Var<T>& x, std::size_t axis, bool keep_dims) {
    return scaled_sum(x, axis, keep_dims, T(1), "sum");
}

template <class T>
Var<T> mean(const Var<T>& x, std::size_t axis, bool keep_dims) {
    check_axis("mean", x.shape(), axis);
    if (x.shape(axis) == 0) throw std::invalid_argument("mean: axis " + std::to_string(axis) + " is empty");
    return scaled_sum(x, axis, keep_dims, T(1) / static_cast<T>(x.shape(axis)), "mean");
}

template <class T>
Var<T> max(const Var<T>& x, std::size_t axis, bool keep_dims) {
    check_axis("max", x.shape(), axis);
    const Shape shape = x.shape();
    const AxisView v = around_axis(shape, axis);
    if (v.length == 0) throw std::invalid_argument("max: axis " + std::to_string(axis) + " is empty");
    Array<T> out = kernels::empty_array<T>(reduced_shape(shape, axis, keep_dims));
    std::vector<std::size_t> winner(v.outer * v.inner);   // which j won, for the backward pass
    const T* in = x.value().data();
    for (std::size_t a = 0; a < v.outer; ++a)
        for (std::size_t i = 0; i < v.inner; ++i) {
            std::size_t best = 0;
            for (std::size_t j = 1; j < v.length; ++j)
                if (in[(a * v.length + j) * v.inner + i] > in[(a * v.length + best) * v.inner + i]) best = j;
            winner[a * v.inner + i] = best;
            out.data()[a * v.inner + i] = in[(a * v.length + best) * v.inner + i];
        }
    return record_op<T>("max", std::move(out), {x}, Reads::nothing, [=](Node<T>& self) {
        // out[o, i] = x[o, j*, i]:  only the first maximum j* receives dout[o, i]
        T* g = kernels::grad_buffer(*self.inputs[0]).data();
        for (std::size_t a = 0; a < v.outer; ++a)
            for (std::size_t i = 0; i < v.inner; ++i)
                g[(a * v.length + winner[a * v.inner + i]) * v.inner + i] += self.grad.data()[a * v.inner + i];
    });
}

// ---- instantiations: do not edit ----
#define ATTN_INSTANTIATE(T)                                          \
    template Var<T> sum(const Var<T>&);                              \
    template Var<T> sum(const Var<T>&, std::size_t, bool);           \
    template Var<T> mean(const Var<T>&);                             \
    template Var<T> mean(const Var<T>&, std::size_t, bool);          \
    template Var<T> max(const Var<T>&, std::size_t, bool);
ATTN_INSTANTIATE(float)
ATTN_INSTANTIATE(double)

}  // namespace attn
