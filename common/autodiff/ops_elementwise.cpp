// Element-wise ops with NumPy broadcasting, and their gradients (see ops.hpp).
#include "common/autodiff/kernels.hpp"
#include "common/autodiff/ops.hpp"
#include "common/row_math.hpp"
#include "common/simd_clones.hpp"

#include <cmath>
#include <initializer_list>
#include <utility>

namespace attn {

using kernels::shape_of;
using kernels::sum_to_shape;

namespace {

// True when `small` lines up with the last axes of `full`, so it repeats every small.size() entries.
bool repeats_within(const Shape& small, std::size_t small_size, const Shape& full) {
    return small_size == 1 || (small.size() <= full.size() &&
                               std::equal(small.begin(), small.end(), full.end() - static_cast<std::ptrdiff_t>(small.size())));
}

// The loops below are compiled for several CPUs (COURSE_SIMD_CLONES). They allocate nothing
// and throw nothing: GCC's dispatch to a clone cannot pass an exception on, so shapes are
// checked and buffers allocated by their callers.

// o = f(x, y) where one side repeats every `period` entries (a bias, a scalar) and the other
// runs over all n: f(x[k], y[k mod period]), or f(x[k mod period], y[k]) if x repeats.
template <class T, class F>
COURSE_SIMD_CLONES void map_repeating(const T* x, const T* y, T* o, std::size_t n, std::size_t period, bool x_repeats,
                                      F f) noexcept {
    for (std::size_t start = 0; start < n; start += period) {
        if (x_repeats) for (std::size_t j = 0; j < period; ++j) o[start + j] = f(x[j], y[start + j]);
        else for (std::size_t j = 0; j < period; ++j) o[start + j] = f(x[start + j], y[j]);
    }
}

// o = f(a, b) row by row, the walks saying where each row's entries of a and b are.
template <class T, class F>
COURSE_SIMD_CLONES void map_broadcast_rows(const T* x, const T* y, T* o, std::size_t n, std::size_t inner,
                                           kernels::BroadcastWalk& walk_a, kernels::BroadcastWalk& walk_b, F f) noexcept {
    for (std::size_t start = 0; start < n; start += inner, walk_a.advance(), walk_b.advance()) {
        const T* xa = x + walk_a.offset();
        const T* yb = y + walk_b.offset();
        T* row = o + start;
        const std::size_t step_a = walk_a.last_stride(), step_b = walk_b.last_stride();
        if (step_a == 1 && step_b == 1) for (std::size_t j = 0; j < inner; ++j) row[j] = f(xa[j], yb[j]);
        else if (step_a == 1) for (std::size_t j = 0; j < inner; ++j) row[j] = f(xa[j], yb[0]);
        else if (step_b == 1) for (std::size_t j = 0; j < inner; ++j) row[j] = f(xa[0], yb[j]);
        else for (std::size_t j = 0; j < inner; ++j) row[j] = f(xa[0], yb[0]);
    }
}

// o = f(x), or x = f(x, s) in place when `s` is given.
template <class T, class F>
COURSE_SIMD_CLONES void map_unary(const T* x, T* o, std::size_t n, F f) noexcept {
    for (std::size_t k = 0; k < n; ++k) o[k] = f(x[k]);
}
template <class T, class F>
COURSE_SIMD_CLONES void map_in_place(T* x, const T* s, std::size_t n, F f) noexcept {
    for (std::size_t k = 0; k < n; ++k) x[k] = f(x[k], s[k]);
}

// out = f(a, b) element-wise over the broadcast shape, into `out` (of that shape; it may be a
// or b itself when that has the full shape: each entry is read before it is written). The
// common cases (same shape, a scalar, a bias along the last axes) run as flat loops; anything
// else row by row.
template <class T, class F>
void map_binary(const Array<T>& a, const Array<T>& b, Array<T>& out, F f) {
    const Shape sa = shape_of(a), sb = shape_of(b), out_shape = shape_of(out);
    const std::size_t n = out.size();
    if (n == 0) return;
    if (sa == out_shape && repeats_within(sb, b.size(), out_shape)) {   // b repeats along the rows
        map_repeating(a.data(), b.data(), out.data(), n, b.size(), false, f);
    } else if (sb == out_shape && repeats_within(sa, a.size(), out_shape)) {
        map_repeating(a.data(), b.data(), out.data(), n, a.size(), true, f);
    } else {   // e.g. queries (b, n_q, 1, h) + keys (b, 1, n_k, h) in additive attention
        kernels::BroadcastWalk walk_a(out_shape, sa, true), walk_b(out_shape, sb, true);
        map_broadcast_rows(a.data(), b.data(), out.data(), n, out_shape.back(), walk_a, walk_b, f);
    }
}

template <class T, class F>
Array<T> apply_binary(const Array<T>& a, const Array<T>& b, const char* op, F f) {
    Array<T> out = kernels::empty_array<T>(kernels::broadcast_shapes(shape_of(a), shape_of(b), op));
    map_binary(a, b, out, f);
    return out;
}

// The nodes before `node` that handed their entries on, each to the next, down to `node`: in
// relu(a * 2.0 - 0.5) the subtraction wrote over the product, and relu may write over both,
// since neither can be read again. A node whose input shares its entries got them this way,
// unless it is a view (reshape's output shares its base's, and the base may still be read).
template <class T>
std::size_t spent_owners(const Node<T>& node) {
    std::size_t spent = 0;
    for (const Node<T>* n = &node; n->view_of == nullptr;) {
        const Node<T>* giver = nullptr;
        for (const auto& input : n->inputs)
            if (input->value.data() == n->value.data()) giver = input.get();
        if (giver == nullptr) break;
        ++spent;
        n = giver;
    }
    return spent;
}

// Where an op's result goes: over the entries of x, an input handed over as a temporary
// (taken by value and held by nothing else), or into a fresh array. The result is the same;
// the step saves an allocation and a pass of writes to memory not in the cache yet. x's node
// stays on the tape with its shape, which is all the gradients ask of it; its entries may
// change because nothing can read them again:
//   - no other Var holds x, and no recorded op took x as an input (the node has one owner);
//   - x's own backward does not read x's value: matmul's output qualifies (its backward reads
//     its inputs), tanh's does not; nor do the outputs of ops that recorded no backward at
//     all (in no-grad mode, or when no input needs a gradient);
//   - no other array shares its entries (a view that reshape made, say), except the nodes
//     that handed the same entries on earlier (spent_owners);
//   - it has the result's shape.
// The consuming op's backward must not read x either (add's, tanh's input: they do not).
template <class T>
bool handed_over(const Var<T>& x, const Shape& shape) {
    const Node<T>& node = *x.node();
    return x.node().use_count() == 1 &&
           (node.reads == Reads::nothing || node.reads == Reads::inputs) && node.value.size() > 0 &&
           storage::owners(node.value.data()) == 1 + spent_owners(node) && shape_of(node.value) == shape;
}

// The array for a result of `shape`: over the entries of the first candidate that is handed
// over, or fresh. Call it before anything copies a candidate's handle (record_op's {x} does):
// the copy would be a second owner.
template <class T>
Array<T> result_array(const Shape& shape, std::initializer_list<const Var<T>*> candidates) {
    for (const Var<T>* x : candidates)
        if (handed_over(*x, shape)) return share_storage(x->value(), shape);
    return kernels::empty_array<T>(shape);
}

// a op b for the forward pass, over a's or b's entries when one of them is handed over.
template <class T, class F>
Array<T> forward_binary(const Var<T>& a, const Var<T>& b, const char* op, F f) {
    Array<T> out = result_array<T>(kernels::broadcast_shapes(a.shape(), b.shape(), op), {&a, &b});
    map_binary(a.value(), b.value(), out, f);
    return out;
}

template <class T, class F>
Array<T> apply_unary(const Var<T>& a, F f) {
    Array<T> out = result_array<T>(a.shape(), {&a});
    map_unary(a.value().data(), out.data(), out.size(), f);
    return out;
}

// Adds g, summed back to the input's shape, into an input that wants a gradient. Moving g
// in (when the caller no longer needs it) saves a copy of a whole tensor.
template <class T>
void add_grad(Node<T>& input, Array<T> g) {
    if (input.requires_grad) accumulate_grad(input, sum_to_shape(std::move(g), shape_of(input.value)));
}

// The same for a g the caller still needs: read in place, copied only when it becomes the
// input's first gradient as it is (nothing broadcast).
template <class T>
void add_grad_from(Node<T>& input, const Array<T>& g) {
    if (!input.requires_grad) return;
    const Shape shape = shape_of(input.value);
    if (shape_of(g) == shape) accumulate_grad(input, g);
    else accumulate_grad(input, kernels::reduce_to_shape(g, shape));
}

// The backward of a one-input op whose gradient is dx = f(dy, s) entry by entry, with s a
// saved value of dy's shape: computed over dy's own buffer (the tape drops dy right after
// this op's backward, so no fresh buffer is needed) and handed to x.
template <class T, class F>
void pass_back(Node<T>& self, const Array<T>& saved, F f) {
    map_in_place(self.grad.data(), saved.data(), self.grad.size(), f);
    accumulate_grad(*self.inputs[0], std::move(self.grad));
}

// The same for dx = f(dy).
template <class T, class F>
void pass_back(Node<T>& self, F f) {
    map_unary(self.grad.data(), self.grad.data(), self.grad.size(), f);
    accumulate_grad(*self.inputs[0], std::move(self.grad));
}

}  // namespace

template <class T>
Var<T> operator+(Var<T> a, Var<T> b) {
    Array<T> out = forward_binary(a, b, "add", [](T x, T y) { return x + y; });
    return record_op<T>("add", std::move(out), {a, b}, Reads::nothing, [](Node<T>& self) {
        // out = a + b:  da = dout, db = dout (each summed over its broadcast axes). dout can be
        // handed over (moved, the tape frees it next anyway) once: to an input of its own shape,
        // after the other input has read it.
        Node<T>& a = *self.inputs[0];
        Node<T>& b = *self.inputs[1];
        const bool b_full = shape_of(b.value) == shape_of(self.grad);
        add_grad_from(b_full ? a : b, self.grad);
        add_grad(b_full ? b : a, std::move(self.grad));
    });
}

template <class T>
Var<T> operator-(Var<T> a, Var<T> b) {
    Array<T> out = forward_binary(a, b, "sub", [](T x, T y) { return x - y; });
    return record_op<T>("sub", std::move(out), {a, b}, Reads::nothing, [](Node<T>& self) {
        // out = a - b:  da = dout, db = -dout (negated in dout's own buffer once a has read it)
        add_grad_from(*self.inputs[0], self.grad);
        if (!self.inputs[1]->requires_grad) return;
        map_unary(self.grad.data(), self.grad.data(), self.grad.size(), [](T g) { return -g; });
        add_grad(*self.inputs[1], std::move(self.grad));
    });
}

template <class T>
Var<T> operator*(const Var<T>& a, const Var<T>& b) {
    Array<T> out = apply_binary(a.value(), b.value(), "mul", [](T x, T y) { return x * y; });
    return record_op<T>("mul", std::move(out), {a, b}, Reads::inputs, [](Node<T>& self) {
        Node<T>& na = *self.inputs[0];
        Node<T>& nb = *self.inputs[1];
        const auto times = [](T x, T y) { return x * y; };
        // out = a * b:  da = dout * b, db = dout * a
        if (na.requires_grad) add_grad(na, apply_binary(self.grad, nb.value, "mul", times));
        if (!nb.requires_grad) return;
        if (shape_of(na.value) != shape_of(self.grad)) {
            add_grad(nb, apply_binary(self.grad, na.value, "mul", times));
            return;
        }
        // dout * a over dout's own buffer: da above has read it
        map_in_place(self.grad.data(), na.value.data(), self.grad.size(), times);
        add_grad(nb, std::move(self.grad));
    });
}

template <class T>
Var<T> operator/(const Var<T>& a, const Var<T>& b) {
    Array<T> out = apply_binary(a.value(), b.value(), "div", [](T x, T y) { return x / y; });
    return record_op<T>("div", std::move(out), {a, b}, Reads::inputs_and_output, [](Node<T>& self) {
        Node<T>& na = *self.inputs[0];
        Node<T>& nb = *self.inputs[1];
        Array<T> g_over_b = apply_binary(self.grad, nb.value, "div", [](T x, T y) { return x / y; });
        // out = a / b:  da = dout / b,  db = -dout * a / b^2 = -(dout / b) * out
        if (!nb.requires_grad) {
            add_grad(na, std::move(g_over_b));
            return;
        }
        add_grad_from(na, g_over_b);
        // -(dout / b) * out over g_over_b's buffer (of out's shape)
        map_in_place(g_over_b.data(), self.value.data(), g_over_b.size(), [](T g, T y) { return -g * y; });
        add_grad(nb, std::move(g_over_b));
    });
}

template <class T>
Var<T> operator-(Var<T> a) {
    Array<T> out = apply_unary(a, [](T x) { return -x; });   // before {a} below copies the handle
    return record_op<T>("neg", std::move(out), {a}, Reads::nothing, [](Node<T>& self) {
        pass_back(self, [](T g) { return -g; });   // out = -a
    });
}

// Scalar forms: the scalar is a constant, so only the tensor gets a gradient.
template <class T>
Var<T> operator+(Var<T> a, Scalar<T> s) {
    Array<T> out = apply_unary(a, [s](T x) { return x + s; });
    return record_op<T>("add_scalar", std::move(out), {a}, Reads::nothing,
                        [](Node<T>& self) { accumulate_grad(*self.inputs[0], std::move(self.grad)); });
}
template <class T> Var<T> operator+(Scalar<T> s, Var<T> a) { return std::move(a) + s; }
template <class T> Var<T> operator-(Var<T> a, Scalar<T> s) { return std::move(a) + (-s); }
template <class T> Var<T> operator-(Scalar<T> s, Var<T> a) { return (-std::move(a)) + s; }

template <class T>
Var<T> operator*(Var<T> a, Scalar<T> s) {
    Array<T> out = apply_unary(a, [s](T x) { return x * s; });
    return record_op<T>("mul_scalar", std::move(out), {a}, Reads::nothing,
                        [s](Node<T>& self) {
        pass_back(self, [s](T g) { return g * s; });   // out = s a
    });
}
template <class T> Var<T> operator*(Scalar<T> s, Var<T> a) { return std::move(a) * s; }
template <class T> Var<T> operator/(Var<T> a, Scalar<T> s) { return std::move(a) * (T(1) / s); }

// ---- Unary functions: each backward uses the saved output where that is cheapest --------

namespace {
// y = f(x) entry by entry, through one of the vectorized loops of common/row_math.hpp.
template <class T>
Array<T> map_entries(const Var<T>& x, void (*f)(const T*, T*, std::size_t)) {
    Array<T> y = result_array<T>(x.shape(), {&x});
    f(x.value().data(), y.data(), y.size());
    return y;
}
}  // namespace

template <class T>
Var<T> tanh(Var<T> x) {
    Array<T> y = map_entries<T>(x, row_math::tanh);
    return record_op<T>("tanh", std::move(y), {x}, Reads::output, [](Node<T>& self) {
        // y = tanh(x):  dx = dy * (1 - y^2)
        pass_back(self, self.value, [](T g, T y) { return g * (1 - y * y); });
    });
}

template <class T>
Var<T> sigmoid(Var<T> x) {
    Array<T> y = map_entries<T>(x, row_math::sigmoid);   // 1 / (1 + exp(-x))
    return record_op<T>("sigmoid", std::move(y), {x}, Reads::output, [](Node<T>& self) {
        // y = 1 / (1 + exp(-x)):  dx = dy * y (1 - y)
        pass_back(self, self.value, [](T g, T y) { return g * y * (1 - y); });
    });
}

template <class T>
Var<T> relu(Var<T> x) {
    Array<T> y = apply_unary(x, [](T v) { return v > 0 ? v : T(0); });
    return record_op<T>("relu", std::move(y), {x}, Reads::output, [](Node<T>& self) {
        // y = max(x, 0):  dx = dy where y > 0
        pass_back(self, self.value, [](T g, T y) { return y > 0 ? g : T(0); });
    });
}

template <class T>
Var<T> exp(Var<T> x) {
    Array<T> y = map_entries<T>(x, row_math::exp);
    return record_op<T>("exp", std::move(y), {x}, Reads::output, [](Node<T>& self) {
        // y = exp(x):  dx = dy * y
        pass_back(self, self.value, [](T g, T y) { return g * y; });
    });
}

template <class T>
Var<T> log(const Var<T>& x) {
    Array<T> y = xt::log(x.value());
    return record_op<T>("log", std::move(y), {x}, Reads::inputs, [](Node<T>& self) {
        // y = log(x):  dx = dy / x
        pass_back(self, self.inputs[0]->value, [](T g, T v) { return g / v; });
    });
}

template <class T>
Var<T> sqrt(Var<T> x) {
    Array<T> y = result_array<T>(x.shape(), {&x});
    xt::noalias(y) = xt::sqrt(std::as_const(x).value());   // entry by entry, so y may be x itself
    return record_op<T>("sqrt", std::move(y), {x}, Reads::output, [](Node<T>& self) {
        // y = sqrt(x):  dx = dy / (2 y)
        pass_back(self, self.value, [](T g, T y) { return g / (2 * y); });
    });
}

// ---- instantiations: do not edit ----
#define ATTN_INSTANTIATE(T)                                                               \
    template Var<T> operator+(Var<T>, Var<T>);                                            \
    template Var<T> operator-(Var<T>, Var<T>);                                            \
    template Var<T> operator*(const Var<T>&, const Var<T>&);                              \
    template Var<T> operator/(const Var<T>&, const Var<T>&);                              \
    template Var<T> operator-(Var<T>);                                                    \
    template Var<T> operator+(Var<T>, Scalar<T>);                                         \
    template Var<T> operator+(Scalar<T>, Var<T>);                                         \
    template Var<T> operator-(Var<T>, Scalar<T>);                                         \
    template Var<T> operator-(Scalar<T>, Var<T>);                                         \
    template Var<T> operator*(Var<T>, Scalar<T>);                                         \
    template Var<T> operator*(Scalar<T>, Var<T>);                                         \
    template Var<T> operator/(Var<T>, Scalar<T>);                                         \
    template Var<T> tanh(Var<T>);                                                         \
    template Var<T> sigmoid(Var<T>);                                                      \
    template Var<T> relu(Var<T>);                                                         \
    template Var<T> exp(Var<T>);                                                          \
    template Var<T> log(const Var<T>&);                                                   \
    template Var<T> sqrt(Var<T>);
ATTN_INSTANTIATE(float)
ATTN_INSTANTIATE(double)

}  // namespace attn
