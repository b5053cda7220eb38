// Helpers shared by the ops (see kernels.hpp).
#include "common/autodiff/kernels.hpp"

#include <xtensor/xmath.hpp>

namespace attn::kernels {

AxisView around_axis(const Shape& shape, std::size_t axis) {
    AxisView view;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (d < axis) view.outer *= shape[d];
        else if (d == axis) view.length = shape[d];
        else view.inner *= shape[d];
    }
    return view;
}

std::string axis_error(const char* op, std::size_t axis, const Shape& shape) {
    return std::string(op) + ": axis " + std::to_string(axis) + " does not exist for shape " + shape_string(shape);
}

Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op) {
    const std::size_t rank = std::max(a.size(), b.size());
    Shape out(rank);
    for (std::size_t k = 0; k < rank; ++k) {   // align from the last axis
        const std::size_t da = k < a.size() ? a[a.size() - 1 - k] : 1;
        const std::size_t db = k < b.size() ? b[b.size() - 1 - k] : 1;
        if (da != db && da != 1 && db != 1)
            throw std::invalid_argument(std::string(op) + ": shapes " + shape_string(a) + " and " + shape_string(b) +
                                        " do not broadcast");
        out[rank - 1 - k] = da == 1 ? db : da;
    }
    return out;
}

BroadcastWalk::BroadcastWalk(const Shape& out, const Shape& in, bool by_rows)
    : out_(out), strides_(out.size(), 0), index_(out.size(), 0) {
    std::size_t stride = 1;
    for (std::size_t k = 0; k < in.size(); ++k) {   // align the shapes from the last axis
        const std::size_t d_in = in.size() - 1 - k, d_out = out.size() - 1 - k;
        strides_[d_out] = in[d_in] == 1 ? 0 : stride;
        stride *= in[d_in];
    }
    walked_ = by_rows && !out.empty() ? out.size() - 1 : out.size();
    last_stride_ = out.empty() ? 0 : strides_.back();
}

template <class T>
Array<T> broadcast_to(const Array<T>& a, const Shape& shape) {
    if (std::equal(a.shape().begin(), a.shape().end(), shape.begin(), shape.end())) return a;
    Array<T> out = Array<T>::from_shape(shape);
    BroadcastWalk walk(shape, shape_of(a));
    for (std::size_t k = 0; k < out.size(); ++k, walk.advance()) out.data()[k] = a.data()[walk.offset()];
    return out;
}

template <class T>
Array<T> sum_to_shape(Array<T> g, const Shape& shape) {
    const Shape g_shape = shape_of(g);
    if (g_shape == shape) return g;
    std::size_t target_size = 1;
    for (const std::size_t d : shape) target_size *= d;
    // Fast path for a bias: `shape` is g's trailing axes, so g is `rows` copies of it.
    if (target_size > 0 && g.size() % target_size == 0 && shape.size() <= g_shape.size() &&
        std::equal(shape.begin(), shape.end(), g_shape.end() - static_cast<std::ptrdiff_t>(shape.size()))) {
        Array<T> out = xt::zeros<T>(shape);
        const T* src = g.data();
        T* dst = out.data();
        for (std::size_t r = 0; r < g.size() / target_size; ++r)
            for (std::size_t k = 0; k < target_size; ++k) dst[k] += src[r * target_size + k];
        return out;
    }
    // General case: every entry of g adds into the entry it was broadcast from, a row at a time.
    Array<T> out = xt::zeros<T>(shape);
    const std::size_t inner = g_shape.empty() ? 1 : g_shape.back();
    BroadcastWalk walk(g_shape, shape, /*by_rows=*/true);
    for (std::size_t start = 0; start < g.size(); start += inner, walk.advance()) {
        const T* row = g.data() + start;
        T* target = out.data() + walk.offset();
        if (walk.last_stride() == 1) {
            for (std::size_t j = 0; j < inner; ++j) target[j] += row[j];
        } else {
            T total = 0;
            for (std::size_t j = 0; j < inner; ++j) total += row[j];
            target[0] += total;
        }
    }
    return out;
}

template Array<float> sum_to_shape(Array<float>, const Shape&);
template Array<double> sum_to_shape(Array<double>, const Shape&);
template Array<float> broadcast_to(const Array<float>&, const Shape&);
template Array<double> broadcast_to(const Array<double>&, const Shape&);

}  // namespace attn::kernels
