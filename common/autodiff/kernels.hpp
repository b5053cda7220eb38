// Small helpers shared by the ops' forward and backward code (not part of the learner's API).
#pragma once
#include "common/autodiff/var.hpp"

#include <stdexcept>
#include <string>

namespace attn::kernels {

// A tensor seen as (outer, length, inner) around one axis: every axis before it folded into
// `outer`, every axis after it into `inner`. Most ops along one axis are three loops over this.
struct AxisView {
    std::size_t outer = 1, length = 1, inner = 1;
};
AxisView around_axis(const Shape& shape, std::size_t axis);

template <class T> Shape shape_of(const Array<T>& a) { return Shape(a.shape().begin(), a.shape().end()); }

// An uninitialised array of the given shape (every entry is written before it is read).
template <class T> Array<T> empty_array(const Shape& shape) { return Array<T>::from_shape(shape); }

// The node's gradient buffer, allocated as zeros on first use, for ops that add into part of it.
template <class T> Array<T>& grad_buffer(Node<T>& node) {
    if (node.grad.size() == 0) node.grad = xt::zeros<T>(node.value.shape());
    return node.grad;
}

// The shape two shapes broadcast to (NumPy rules); throws std::invalid_argument naming `op`.
Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op);

// Walks the positions of a tensor of shape `out` in row-major order and tells, for each,
// where the matching entry of a tensor of shape `in` that broadcasts to `out` is. Lets
// broadcasting ops run as one loop with no materialized copies.
//
// With by_rows = true it walks whole rows (the last axis) instead of single entries:
// offset() is where the row starts in the input, and last_stride() is 1 if the input runs
// along the row or 0 if it repeats one value, so the inner loop over a row can vectorize.
class BroadcastWalk {
public:
    BroadcastWalk(const Shape& out, const Shape& in, bool by_rows = false);
    std::size_t offset() const { return offset_; }
    std::size_t last_stride() const { return last_stride_; }
    void advance() {
        for (std::size_t d = walked_; d-- > 0;) {   // an odometer over the output index
            offset_ += strides_[d];
            if (++index_[d] < out_[d]) return;
            offset_ -= strides_[d] * out_[d];
            index_[d] = 0;
        }
    }

private:
    Shape out_, strides_, index_;   // strides_: the input's stride per output axis, 0 if broadcast
    std::size_t offset_ = 0, walked_ = 0, last_stride_ = 0;
};

// Sums g over the axes along which a tensor of `shape` was broadcast to g's shape. Takes g
// by value: when nothing was broadcast it is handed back as it is (moved, not copied).
template <class T> Array<T> sum_to_shape(Array<T> g, const Shape& shape);
// The sum itself, for a g whose shape differs from `shape`; reads g without copying it.
template <class T> Array<T> reduce_to_shape(const Array<T>& g, const Shape& shape);

// a broadcast to `shape` and materialized (a copy only when the shapes differ).
template <class T> Array<T> broadcast_to(const Array<T>& a, const Shape& shape);

// Writes `src`, a row-major tensor of shape `shape`, into `dst` with its axes reordered: axis d
// of the result is axis order[d] of src (what xt::transpose(src, order) holds, laid out
// row-major). Copies whole rows with memcpy when the last axis stays last (splitting or merging
// heads) and transposes tile by tile when it moves (k^T). `order` must be a permutation.
template <class T> void permute_copy(const T* src, const Shape& shape, const Shape& order, T* dst);

// totals[r] = the sum of row r of x (rows, n), added left to right exactly as
// `for (j) total += x[r * n + j]` adds them (a loss's digits depend on that order), but eight
// rows side by side: within a row each addition waits for the one before it, and the rows
// interleaved fill that wait with the other rows' additions.
template <class T> void row_sums(const T* x, std::size_t rows, std::size_t n, T* totals);

std::string axis_error(const char* op, std::size_t axis, const Shape& shape);

}  // namespace attn::kernels
