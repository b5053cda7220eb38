// Reshape, permute, concat, split, slice and index_select, and their gradients (see ops.hpp).
// Along one axis, a tensor is (outer, length, inner) and every copy is a block of `inner`.
#include "common/autodiff/kernels.hpp"
#include "common/autodiff/ops.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace attn {

using kernels::AxisView;
using kernels::around_axis;
using kernels::shape_of;

namespace {

std::size_t count(const Shape& shape) {
    return std::accumulate(shape.begin(), shape.end(), std::size_t(1), std::multiplies<std::size_t>());
}

// Copies rows [from, from + n) of `src` (seen as (outer, src_len, inner)) into rows
// [to, to + n) of `dst` (seen as (outer, dst_len, inner)); adds instead when `add`.
template <class T>
void copy_rows(const T* src, std::size_t src_len, std::size_t from, T* dst, std::size_t dst_len, std::size_t to,
               std::size_t n, const AxisView& v, bool add) {
    // Nothing to copy; an empty array (a key/value cache with no position yet) may have no
    // buffer at all, and memcpy may not be handed a null pointer even for zero bytes.
    if (n == 0 || v.inner == 0) return;
    for (std::size_t a = 0; a < v.outer; ++a) {
        const T* s = src + (a * src_len + from) * v.inner;
        T* d = dst + (a * dst_len + to) * v.inner;
        if (add) for (std::size_t k = 0; k < n * v.inner; ++k) d[k] += s[k];
        else std::memcpy(d, s, n * v.inner * sizeof(T));
    }
}

}  // namespace

template <class T>
Var<T> reshape(const Var<T>& x, const Shape& shape) {
    if (count(shape) != x.size())
        throw std::invalid_argument("reshape: cannot view " + shape_string(x.shape()) + " as " + shape_string(shape) +
                                    " (different number of entries)");
    // A view: x's own entries, read in another shape. Nothing is copied, and a write through
    // either Var shows in both (and counts on x's version).
    Var<T> out = record_op<T>("reshape", share_storage(x.value(), shape), {x}, Reads::nothing, [](Node<T>& self) {
        Node<T>& in = *self.inputs[0];
        Array<T> g = std::move(self.grad);   // same entries in the same order: only the shape changes back
        g.reshape(in.value.shape());
        accumulate_grad(in, std::move(g));
    });
    const std::shared_ptr<Node<T>>& base = x.node();
    out.node()->view_of = base->view_of ? base->view_of : base;
    return out;
}

template <class T>
Var<T> permute(const Var<T>& x, const Shape& order) {
    Shape sorted = order;
    std::sort(sorted.begin(), sorted.end());
    Shape identity(x.dim());
    std::iota(identity.begin(), identity.end(), std::size_t(0));
    if (sorted != identity)
        throw std::invalid_argument("permute: " + shape_string(order) + " is not an order of the axes of " +
                                    shape_string(x.shape()));
    const Shape in_shape = x.shape();
    Shape out_shape(order.size());
    for (std::size_t d = 0; d < order.size(); ++d) out_shape[d] = in_shape[order[d]];
    Array<T> out = kernels::empty_array<T>(out_shape);   // out axis d = x axis order[d], row-major
    kernels::permute_copy(x.value().data(), in_shape, order, out.data());
    Shape inverse(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) inverse[order[i]] = i;
    return record_op<T>("permute", std::move(out), {x}, Reads::nothing, [inverse, out_shape, in_shape](Node<T>& self) {
        Array<T> g = kernels::empty_array<T>(in_shape);   // undo the permutation
        kernels::permute_copy(self.grad.data(), out_shape, inverse, g.data());
        accumulate_grad(*self.inputs[0], std::move(g));
    });
}

template <class T>
Var<T> transpose(const Var<T>& x, std::size_t axis_a, std::size_t axis_b) {
    if (axis_a >= x.dim() || axis_b >= x.dim())
        throw std::invalid_argument(kernels::axis_error("transpose", std::max(axis_a, axis_b), x.shape()));
    Shape order(x.dim());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::swap(order[axis_a], order[axis_b]);
    return permute(x, order);
}

template <class T>
Var<T> concat(const std::vector<Var<T>>& parts, std::size_t axis) {
    if (parts.empty()) throw std::invalid_argument("concat: nothing to concatenate");
    Shape out_shape = parts[0].shape();
    if (axis >= out_shape.size()) throw std::invalid_argument(kernels::axis_error("concat", axis, out_shape));
    out_shape[axis] = 0;
    for (const Var<T>& p : parts) {
        Shape s = p.shape(), expected = parts[0].shape();
        s[axis] = expected[axis] = 0;
        if (s != expected)
            throw std::invalid_argument("concat: parts of shapes " + shape_string(parts[0].shape()) + " and " +
                                        shape_string(p.shape()) + " differ outside axis " + std::to_string(axis));
        out_shape[axis] += p.shape(axis);
    }
    Array<T> out = kernels::empty_array<T>(out_shape);
    const AxisView v = around_axis(out_shape, axis);
    std::vector<std::size_t> offsets;
    std::size_t offset = 0;
    for (const Var<T>& p : parts) {
        copy_rows(p.value().data(), p.shape(axis), 0, out.data(), v.length, offset, p.shape(axis), v, false);
        offsets.push_back(offset);
        offset += p.shape(axis);
    }
    return record_op<T>("concat", std::move(out), parts, Reads::nothing, [v, offsets](Node<T>& self) {
        // each part receives its own block of rows of dout
        for (std::size_t i = 0; i < self.inputs.size(); ++i) {
            Node<T>& part = *self.inputs[i];
            if (!part.requires_grad) continue;
            const std::size_t rows = part.value.size() / (v.outer * v.inner);   // this part's length along the axis
            copy_rows(self.grad.data(), v.length, offsets[i], kernels::grad_buffer(part).data(), rows, 0, rows, v, true);
        }
    });
}

template <class T>
Var<T> slice(const Var<T>& x, std::size_t axis, std::size_t start, std::size_t stop) {
    const Shape shape = x.shape();
    if (axis >= shape.size()) throw std::invalid_argument(kernels::axis_error("slice", axis, shape));
    if (start > stop || stop > shape[axis])
        throw std::invalid_argument("slice: [" + std::to_string(start) + ", " + std::to_string(stop) +
                                    ") is not inside axis " + std::to_string(axis) + " of " + shape_string(shape));
    Shape out_shape = shape;
    out_shape[axis] = stop - start;
    const AxisView v = around_axis(shape, axis);
    Array<T> out = kernels::empty_array<T>(out_shape);
    copy_rows(x.value().data(), v.length, start, out.data(), stop - start, 0, stop - start, v, false);
    return record_op<T>("slice", std::move(out), {x}, Reads::nothing, [v, start, stop](Node<T>& self) {
        // out = x[..., start:stop, ...]:  dout goes back to those rows
        copy_rows(self.grad.data(), stop - start, 0, kernels::grad_buffer(*self.inputs[0]).data(), v.length, start,
                  stop - start, v, true);
    });
}

template <class T>
std::vector<Var<T>> split(const Var<T>& x, const Shape& sizes, std::size_t axis) {
    if (axis >= x.dim()) throw std::invalid_argument(kernels::axis_error("split", axis, x.shape()));
    if (std::accumulate(sizes.begin(), sizes.end(), std::size_t(0)) != x.shape(axis))
        throw std::invalid_argument("split: sizes " + shape_string(sizes) + " do not add up to axis " +
                                    std::to_string(axis) + " of " + shape_string(x.shape()));
    std::vector<Var<T>> parts;
    std::size_t start = 0;
    for (const std::size_t size : sizes) {
        parts.push_back(slice(x, axis, start, start + size));
        start += size;
    }
    return parts;
}

template <class T>
Var<T> select(const Var<T>& x, std::size_t axis, std::size_t index) {
    const Shape shape = x.shape();
    if (axis >= shape.size()) throw std::invalid_argument(kernels::axis_error("select", axis, shape));
    if (index >= shape[axis])
        throw std::invalid_argument("select: index " + std::to_string(index) + " is outside axis " + std::to_string(axis) +
                                    " of " + shape_string(shape));
    Shape out_shape = shape;
    out_shape.erase(out_shape.begin() + static_cast<std::ptrdiff_t>(axis));
    const AxisView v = around_axis(shape, axis);
    Array<T> out = kernels::empty_array<T>(out_shape);
    copy_rows(x.value().data(), v.length, index, out.data(), 1, 0, 1, v, false);
    return record_op<T>("select", std::move(out), {x}, Reads::nothing, [v, index](Node<T>& self) {
        // out = x[..., index, ...]:  dout goes back to that one row
        copy_rows(self.grad.data(), 1, 0, kernels::grad_buffer(*self.inputs[0]).data(), v.length, index, 1, v, true);
    });
}

template <class T>
Var<T> stack(const std::vector<Var<T>>& parts, std::size_t axis) {
    if (parts.empty()) throw std::invalid_argument("stack: nothing to stack");
    const Shape part_shape = parts[0].shape();
    if (axis > part_shape.size()) throw std::invalid_argument(kernels::axis_error("stack", axis, part_shape));
    for (const Var<T>& part : parts)
        if (part.shape() != part_shape)
            throw std::invalid_argument("stack: parts of shapes " + shape_string(part_shape) + " and " +
                                        shape_string(part.shape()) + " differ");
    Shape out_shape = part_shape;
    out_shape.insert(out_shape.begin() + static_cast<std::ptrdiff_t>(axis), parts.size());   // (a, b) -> (a, k, b)
    const AxisView v = around_axis(out_shape, axis);
    Array<T> out = kernels::empty_array<T>(out_shape);
    for (std::size_t k = 0; k < parts.size(); ++k)
        copy_rows(parts[k].value().data(), 1, 0, out.data(), v.length, k, 1, v, false);
    return record_op<T>("stack", std::move(out), parts, Reads::nothing, [v](Node<T>& self) {
        // part k is row k along the new axis; it receives that row of dout
        for (std::size_t k = 0; k < self.inputs.size(); ++k)
            if (self.inputs[k]->requires_grad)
                copy_rows(self.grad.data(), v.length, k, kernels::grad_buffer(*self.inputs[k]).data(), 1, 0, 1, v, true);
    });
}

template <class T>
Var<T> expand(const Var<T>& x, const Shape& shape) {
    const Shape target = kernels::broadcast_shapes(x.shape(), shape, "expand");
    if (target != shape)
        throw std::invalid_argument("expand: " + shape_string(x.shape()) + " cannot be broadcast to " + shape_string(shape));
    return record_op<T>("expand", kernels::broadcast_to(x.value(), shape), {x}, Reads::nothing, [](Node<T>& self) {
        Node<T>& in = *self.inputs[0];   // every copy of an entry sends its gradient back to it
        accumulate_grad(in, kernels::sum_to_shape(std::move(self.grad), shape_of(in.value)));
    });
}

template <class T>
Var<T> index_select(const Var<T>& x, std::size_t axis, const std::vector<std::size_t>& indices) {
    const Shape shape = x.shape();
    if (axis >= shape.size()) throw std::invalid_argument(kernels::axis_error("index_select", axis, shape));
    for (const std::size_t i : indices)
        if (i >= shape[axis])
            throw std::invalid_argument("index_select: index " + std::to_string(i) + " is outside axis " +
                                        std::to_string(axis) + " of " + shape_string(shape));
    Shape out_shape = shape;
    out_shape[axis] = indices.size();
    const AxisView v = around_axis(shape, axis);
    Array<T> out = kernels::empty_array<T>(out_shape);
    for (std::size_t r = 0; r < indices.size(); ++r)
        copy_rows(x.value().data(), v.length, indices[r], out.data(), indices.size(), r, 1, v, false);
    return record_op<T>("index_select", std::move(out), {x}, Reads::nothing, [v, indices](Node<T>& self) {
        // out row r = x row indices[r]:  dout row r is added to dx row indices[r]
        T* g = kernels::grad_buffer(*self.inputs[0]).data();
        for (std::size_t r = 0; r < indices.size(); ++r)
            copy_rows(self.grad.data(), indices.size(), r, g, v.length, indices[r], 1, v, true);
    });
}

// ---- instantiations: do not edit ----
#define ATTN_INSTANTIATE(T)                                                                \
    template Var<T> reshape(const Var<T>&, const Shape&);                                 \
    template Var<T> permute(const Var<T>&, const Shape&);                                 \
    template Var<T> transpose(const Var<T>&, std::size_t, std::size_t);                   \
    template Var<T> concat(const std::vector<Var<T>>&, std::size_t);                      \
    template std::vector<Var<T>> split(const Var<T>&, const Shape&, std::size_t);         \
    template Var<T> slice(const Var<T>&, std::size_t, std::size_t, std::size_t);          \
    template Var<T> index_select(const Var<T>&, std::size_t, const std::vector<std::size_t>&); \
    template Var<T> stack(const std::vector<Var<T>>&, std::size_t);                      \
    template Var<T> select(const Var<T>&, std::size_t, std::size_t);                     \
    template Var<T> expand(const Var<T>&, const Shape&);
ATTN_INSTANTIATE(float)
ATTN_INSTANTIATE(double)

}  // namespace attn
