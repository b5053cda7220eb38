// Helpers shared by the ops (see kernels.hpp).
#include "common/autodiff/kernels.hpp"
#include "common/simd_clones.hpp"

#include "common/xtensor_compat.hpp"

#include <algorithm>
#include <cstring>

namespace attn::kernels {

namespace {

// One axis of a permuted copy, in the result's order: how long it is and how far one step along
// it moves in the source and in the result.
struct Run {
    std::size_t length, src_stride, dst_stride;
};

// The result's axes as runs, with unit axes dropped and each axis merged into the one before it
// when the two are neighbours in the same order in the source too (then they walk as one longer
// axis). Splitting heads, (b, n, h, d) -> (b, h, n, d), stays four runs with d's stride 1.
std::vector<Run> permuted_runs(const Shape& shape, const Shape& order) {
    Shape src_strides(shape.size());
    std::size_t stride = 1;
    for (std::size_t d = shape.size(); d-- > 0;) {
        src_strides[d] = stride;
        stride *= shape[d];
    }
    std::vector<Run> runs;
    for (const std::size_t axis : order) {
        if (shape[axis] == 1) continue;
        if (!runs.empty() && runs.back().src_stride == src_strides[axis] * shape[axis])
            runs.back() = {runs.back().length * shape[axis], src_strides[axis], 0};
        else
            runs.push_back({shape[axis], src_strides[axis], 0});
    }
    stride = 1;   // the result is row-major over its runs
    for (std::size_t r = runs.size(); r-- > 0;) {
        runs[r].dst_stride = stride;
        stride *= runs[r].length;
    }
    return runs;
}

// An odometer over some runs, keeping the offsets in the source and in the result.
class RunWalk {
public:
    explicit RunWalk(std::vector<Run> runs) : runs_(std::move(runs)), index_(runs_.size(), 0) {}
    std::size_t src() const { return src_; }
    std::size_t dst() const { return dst_; }
    void advance() {
        for (std::size_t r = runs_.size(); r-- > 0;) {
            src_ += runs_[r].src_stride;
            dst_ += runs_[r].dst_stride;
            if (++index_[r] < runs_[r].length) return;
            src_ -= runs_[r].src_stride * runs_[r].length;
            dst_ -= runs_[r].dst_stride * runs_[r].length;
            index_[r] = 0;
        }
    }

private:
    std::vector<Run> runs_;
    Shape index_;
    std::size_t src_ = 0, dst_ = 0;
};

// Copies one row of `bytes` bytes. Short rows (a head of 16 floats is one 64-byte line) are
// copied in fixed-size pieces, which the compiler turns into a few moves: a call to memcpy for
// each would cost more than the copy itself.
inline void copy_row(void* dst, const void* src, std::size_t bytes) {
    if (bytes > 256) {
        std::memcpy(dst, src, bytes);
        return;
    }
    auto* d = static_cast<unsigned char*>(dst);
    const auto* s = static_cast<const unsigned char*>(src);
    for (; bytes >= 64; bytes -= 64, d += 64, s += 64) std::memcpy(d, s, 64);
    for (; bytes >= 4; bytes -= 4, d += 4, s += 4) std::memcpy(d, s, 4);
    if (bytes > 0) std::memcpy(d, s, bytes);
}

}  // namespace

template <class T>
void permute_copy(const T* src, const Shape& shape, const Shape& order, T* dst) {
    std::size_t total = 1;
    for (const std::size_t d : shape) total *= d;
    if (total == 0) return;
    std::vector<Run> runs = permuted_runs(shape, order);
    if (runs.empty() || runs.back().src_stride == 1) {
        // The last axis stays last: the result is whole rows of the source, in a new order,
        // copied along the next run in one loop (the walk steps over the runs outside it).
        const std::size_t row = runs.empty() ? 1 : runs.back().length;
        if (!runs.empty()) runs.pop_back();
        const Run along = runs.empty() ? Run{1, 0, row} : runs.back();
        if (!runs.empty()) runs.pop_back();
        RunWalk walk(runs);
        for (std::size_t start = 0; start < total; start += along.length * row, walk.advance())
            for (std::size_t i = 0; i < along.length; ++i)
                copy_row(dst + start + i * row, src + walk.src() + i * along.src_stride, row * sizeof(T));
        return;
    }
    // The source's last axis (stride 1) became run p of the result, and the result's last run
    // strides through the source: for each position of the other runs, a (p, last) matrix is
    // transposed, a tile at a time so that the reads and the writes both stay in the cache.
    const std::size_t p = static_cast<std::size_t>(
        std::find_if(runs.begin(), runs.end(), [](const Run& r) { return r.src_stride == 1; }) - runs.begin());
    const Run rows = runs[p], cols = runs.back();
    runs.pop_back();
    runs.erase(runs.begin() + static_cast<std::ptrdiff_t>(p));
    constexpr std::size_t tile = 16;
    RunWalk walk(runs);
    for (std::size_t done = 0; done < total; done += rows.length * cols.length, walk.advance()) {
        const T* s = src + walk.src();
        T* d = dst + walk.dst();
        for (std::size_t i0 = 0; i0 < rows.length; i0 += tile)
            for (std::size_t j0 = 0; j0 < cols.length; j0 += tile) {
                const std::size_t i_end = std::min(i0 + tile, rows.length), j_end = std::min(j0 + tile, cols.length);
                for (std::size_t i = i0; i < i_end; ++i)
                    for (std::size_t j = j0; j < j_end; ++j) d[i * rows.dst_stride + j] = s[i + j * cols.src_stride];
            }
    }
}

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
    if (shape_of(g) == shape) return g;
    return reduce_to_shape(g, shape);
}

namespace {
// The loops of reduce_to_shape, compiled for several CPUs (common/simd_clones.hpp); they
// allocate nothing and throw nothing.
template <class T>
COURSE_SIMD_CLONES void add_rows(const T* src, std::size_t rows, std::size_t width, T* dst) noexcept {
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t k = 0; k < width; ++k) dst[k] += src[r * width + k];
}

template <class T>
COURSE_SIMD_CLONES void add_broadcast_rows(const T* g, std::size_t n, std::size_t inner, BroadcastWalk& walk, T* out) noexcept {
    for (std::size_t start = 0; start < n; start += inner, walk.advance()) {
        const T* row = g + start;
        T* target = out + walk.offset();
        if (walk.last_stride() == 1) {
            for (std::size_t j = 0; j < inner; ++j) target[j] += row[j];
        } else {
            T total = 0;
            for (std::size_t j = 0; j < inner; ++j) total += row[j];
            target[0] += total;
        }
    }
}
}  // namespace

template <class T>
Array<T> reduce_to_shape(const Array<T>& g, const Shape& shape) {
    const Shape g_shape = shape_of(g);
    std::size_t target_size = 1;
    for (const std::size_t d : shape) target_size *= d;
    Array<T> out = xt::zeros<T>(shape);
    // Fast path for a bias: `shape` is g's trailing axes, so g is `rows` copies of it.
    if (target_size > 0 && g.size() % target_size == 0 && shape.size() <= g_shape.size() &&
        std::equal(shape.begin(), shape.end(), g_shape.end() - static_cast<std::ptrdiff_t>(shape.size()))) {
        add_rows(g.data(), g.size() / target_size, target_size, out.data());
        return out;
    }
    // General case: every entry of g adds into the entry it was broadcast from, a row at a time.
    BroadcastWalk walk(g_shape, shape, /*by_rows=*/true);
    add_broadcast_rows(g.data(), g.size(), g_shape.empty() ? 1 : g_shape.back(), walk, out.data());
    return out;
}

template <class T>
void row_sums(const T* x, std::size_t rows, std::size_t n, T* totals) {
    constexpr std::size_t side_by_side = 8;
    std::size_t r = 0;
    for (; r + side_by_side <= rows; r += side_by_side) {
        T total[side_by_side] = {};
        for (std::size_t j = 0; j < n; ++j)
            for (std::size_t b = 0; b < side_by_side; ++b) total[b] += x[(r + b) * n + j];
        std::copy(total, total + side_by_side, totals + r);
    }
    for (; r < rows; ++r) {
        T total = 0;
        for (std::size_t j = 0; j < n; ++j) total += x[r * n + j];
        totals[r] = total;
    }
}

template void row_sums(const float*, std::size_t, std::size_t, float*);
template void row_sums(const double*, std::size_t, std::size_t, double*);
template void permute_copy(const float*, const Shape&, const Shape&, float*);
template void permute_copy(const double*, const Shape&, const Shape&, double*);
template Array<float> sum_to_shape(Array<float>, const Shape&);
template Array<double> sum_to_shape(Array<double>, const Shape&);
template Array<float> reduce_to_shape(const Array<float>&, const Shape&);
template Array<double> reduce_to_shape(const Array<double>&, const Shape&);
template Array<float> broadcast_to(const Array<float>&, const Shape&);
template Array<double> broadcast_to(const Array<double>&, const Shape&);

}  // namespace attn::kernels
