// Sums, means and maxima over all entries or one axis, and their gradients (see ops.hpp).
#include "common/autodiff/kernels.hpp"
#include "common/autodiff/ops.hpp"

#include <algorithm>

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

// The sum of a row, kept in registers: eight partial sums are eight independent additions,
// which the compiler turns into one vector addition (a single running total could not be
// reordered without changing the rounding, so it would stay one addition at a time).
template <class T>
T row_sum(const T* x, std::size_t n) {
    T part[8] = {};
    std::size_t k = 0;
    for (; k + 8 <= n; k += 8)
        for (std::size_t l = 0; l < 8; ++l) part[l] += x[k + l];
    T rest = 0;
    for (; k < n; ++k) rest += x[k];
    return ((part[0] + part[1]) + (part[2] + part[3])) + ((part[4] + part[5]) + (part[6] + part[7])) + rest;
}

// sum over `axis` times `scale`: out[a, i] = scale * sum_j x[a, j, i]
template <class T>
Array<T> scaled_axis_sum(const Array<T>& x, std::size_t axis, bool keep_dims, T scale) {
    const Shape shape = kernels::shape_of(x);
    const AxisView v = around_axis(shape, axis);
    Array<T> out = kernels::empty_array<T>(reduced_shape(shape, axis, keep_dims));
    const T* in = x.data();
    T* o = out.data();
    if (v.inner == 1) {   // the last axis: one row sum per output entry
        for (std::size_t a = 0; a < v.outer; ++a) o[a] = scale * row_sum(in + a * v.length, v.length);
        return out;
    }
    // a middle axis: out row a is the sum of the rows x[a, j, :], added a whole row at a time
    for (std::size_t a = 0; a < v.outer; ++a) {
        T* total = o + a * v.inner;
        std::fill(total, total + v.inner, T(0));
        for (std::size_t j = 0; j < v.length; ++j) {
            const T* row = in + (a * v.length + j) * v.inner;
            for (std::size_t i = 0; i < v.inner; ++i) total[i] += row[i];
        }
        if (scale != T(1))
            for (std::size_t i = 0; i < v.inner; ++i) total[i] *= scale;
    }
    return out;
}

// The gradient of a scaled axis sum, added straight into the input's gradient (no temporary):
// every x[a, j, i] receives scale * dout[a, i].
template <class T>
void spread_over_axis(const Array<T>& dout, Node<T>& in, std::size_t axis, T scale) {
    const Shape shape = kernels::shape_of(in.value);
    const AxisView v = around_axis(shape, axis);
    const bool first = in.grad.size() == 0;   // then write instead of add, without zeroing first
    if (first) in.grad = kernels::empty_array<T>(shape);
    const T* d = dout.data();
    T* g = in.grad.data();
    if (v.inner == 1) {   // the last axis: row a receives one number, scale * dout[a]
        for (std::size_t a = 0; a < v.outer; ++a) {
            const T share = scale * d[a];
            T* row = g + a * v.length;
            if (first) std::fill(row, row + v.length, share);
            else
                for (std::size_t j = 0; j < v.length; ++j) row[j] += share;
        }
        return;
    }
    for (std::size_t a = 0; a < v.outer; ++a)   // a middle axis: every row x[a, j, :] receives row a of dout
        for (std::size_t j = 0; j < v.length; ++j) {
            const T* share = d + a * v.inner;
            T* row = g + (a * v.length + j) * v.inner;
            if (first)
                for (std::size_t i = 0; i < v.inner; ++i) row[i] = scale * share[i];
            else
                for (std::size_t i = 0; i < v.inner; ++i) row[i] += scale * share[i];
        }
}

template <class T>
Var<T> scaled_sum(const Var<T>& x, std::size_t axis, bool keep_dims, T scale, const char* op) {
    check_axis(op, x.shape(), axis);
    Array<T> out = scaled_axis_sum(x.value(), axis, keep_dims, scale);
    return record_op<T>(op, std::move(out), {x}, Reads::nothing, [=](Node<T>& self) {
        // out[a, i] = scale * sum_j x[a, j, i]:  dx[a, j, i] = scale * dout[a, i]
        spread_over_axis(self.grad, *self.inputs[0], axis, scale);
    });
}

template <class T>
Var<T> scaled_total(const Var<T>& x, T scale, const char* op) {
    const T* in = x.value().data();
    const std::size_t n = x.size();
    T total = 0;
    for (std::size_t k = 0; k < n; ++k) total += in[k];
    Array<T> out = xt::zeros<T>(Shape{});
    out() = scale * total;
    return record_op<T>(op, std::move(out), {x}, Reads::nothing, [scale](Node<T>& self) {
        // out = scale * sum_k x[k]:  dx[k] = scale * dout
        Node<T>& in = *self.inputs[0];
        Array<T> g = kernels::empty_array<T>(kernels::shape_of(in.value));
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
