// The fused kernels of the what-if benchmark (see fused_ops.hpp).
#include "bench/what_if/fused_ops.hpp"

#include "chapters/03_queries_keys_values/attention.hpp"
#include "common/autodiff/kernels.hpp"
#include "common/row_math.hpp"
#include "common/simd_clones.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

namespace attn::what_if {

template <class T>
Var<T> masked_softmax(const Var<T>& scores, const xt::xarray<bool>& blocked, std::size_t heads) {
    const bool masked = !ch03::is_empty(blocked);
    Shape mask_shape = scores.shape();   // the scores' shape, with the heads taken out of the first axis
    if (scores.dim() < 2 || scores.shape(scores.dim() - 1) == 0 || heads == 0 || mask_shape[0] % heads != 0)
        throw std::invalid_argument("what_if::masked_softmax: scores " + shape_string(scores.shape()) +
                                    " must be (batch * heads, ..., n_q, n_k) with n_k > 0, for heads = " +
                                    std::to_string(heads));
    mask_shape[0] /= heads;
    if (masked && Shape(blocked.shape().begin(), blocked.shape().end()) != mask_shape)
        throw std::invalid_argument("what_if::masked_softmax: mask " + shape_string(Shape(blocked.shape().begin(),
                                    blocked.shape().end())) + " must be " + shape_string(mask_shape));
    const std::size_t n = scores.shape(scores.dim() - 1), rows = scores.size() / n;
    const std::size_t n_q = scores.shape(scores.dim() - 2);
    // Row r of the scores (batch * heads, n_q, n_k) obeys row mask_row(r) of blocked (batch, n_q, n_k).
    const auto mask_row = [heads, n_q](std::size_t r) { return (r / (heads * n_q)) * n_q + r % n_q; };
    Array<T> out = kernels::empty_array<T>(scores.shape());
    const T* s = scores.value().data();
    const bool* bl = masked ? blocked.data() : nullptr;
    std::vector<T> x(n);
    const T penalty = static_cast<T>(ch03::blocked_score), none = -T(0);   // (1 - allowed) * blocked_score
    for (std::size_t r = 0; r < rows; ++r) {
        const T* in = s + r * n;
        T* y = out.data() + r * n;
        const bool* mask = masked ? bl + mask_row(r) * n : nullptr;
        if (masked) for (std::size_t j = 0; j < n; ++j) x[j] = in[j] + (mask[j] ? penalty : none);
        const T* row = masked ? x.data() : in;
        const T m = row_math::max(row, n);
        row_math::exp_minus(row, m, y, n);
        row_math::scale(y, T(1) / row_math::sum(y, n), n);
        if (masked) for (std::size_t j = 0; j < n; ++j) y[j] = y[j] * (mask[j] ? T(0) : T(1));
    }
    // dX = Y (dY' - sum_k dY'_k Y_k) with dY' = dY allowed: the product's gradient, then 00.2's.
    return record_op<T>("masked_softmax", std::move(out), {scores}, Reads::output,
                        [rows, n, masked, blocked, mask_row](Node<T>& self) {
        Node<T>& in = *self.inputs[0];
        if (!in.requires_grad) return;
        Array<T> g = kernels::empty_array<T>(kernels::shape_of(self.grad));
        std::vector<T> dy(n);
        for (std::size_t r = 0; r < rows; ++r) {
            const T* y = self.value.data() + r * n;
            const T* go = self.grad.data() + r * n;
            const bool* mask = masked ? blocked.data() + mask_row(r) * n : nullptr;
            for (std::size_t j = 0; j < n; ++j) dy[j] = masked ? go[j] * (mask[j] ? T(0) : T(1)) : go[j];
            const T sdot = row_math::dot(dy.data(), y, n);
            T* dx = g.data() + r * n;
            for (std::size_t j = 0; j < n; ++j) dx[j] = y[j] * (dy[j] - sdot);
        }
        accumulate_grad(in, std::move(g));
    });
}

namespace {
template <class T>
COURSE_SIMD_CLONES void ln_forward(const T* in, const T* w, const T* b, T* out, T* mean, T* rstd, std::size_t rows,
                                   std::size_t n, T eps) noexcept {
    T c[256];
    for (std::size_t r = 0; r < rows; ++r) {
        const T* xr = in + r * n;
        const T mu = row_math::sum(xr, n) / static_cast<T>(n);
        for (std::size_t j = 0; j < n; ++j) c[j] = xr[j] - mu;
        const T rs = T(1) / std::sqrt(row_math::dot(c, c, n) / static_cast<T>(n) + eps);
        T* y = out + r * n;
        for (std::size_t j = 0; j < n; ++j) y[j] = c[j] * rs * w[j] + b[j];
        mean[r] = mu;
        rstd[r] = rs;
    }
}
template <class T>
COURSE_SIMD_CLONES void ln_backward(const T* in, const T* w, const T* grad, const T* mean, const T* rstd, T* dx, T* dw,
                                    T* db, std::size_t rows, std::size_t n) noexcept {
    T xhat[256], dxhat[256];
    for (std::size_t r = 0; r < rows; ++r) {
        const T* xr = in + r * n;
        const T* g = grad + r * n;
        for (std::size_t j = 0; j < n; ++j) {
            xhat[j] = (xr[j] - mean[r]) * rstd[r];
            dxhat[j] = g[j] * w[j];
        }
        const T a = row_math::sum(dxhat, n) / static_cast<T>(n), c = row_math::dot(dxhat, xhat, n) / static_cast<T>(n);
        T* d = dx + r * n;
        for (std::size_t j = 0; j < n; ++j) d[j] = rstd[r] * (dxhat[j] - a - xhat[j] * c);
        for (std::size_t j = 0; j < n; ++j) {
            dw[j] += g[j] * xhat[j];
            db[j] += g[j];
        }
    }
}
}  // namespace

template <class T>
Var<T> layer_norm(const Var<T>& x, const Var<T>& weight, const Var<T>& bias, double eps) {
    const std::size_t n = x.dim() > 0 ? x.shape(x.dim() - 1) : 0, rows = n > 0 ? x.size() / n : 0;
    if (n == 0 || n > 256 || weight.shape() != Shape{n} || bias.shape() != Shape{n})
        throw std::invalid_argument("what_if::layer_norm: x " + shape_string(x.shape()) + " needs a last axis of 1 to 256 "
                                    "entries, and weight " + shape_string(weight.shape()) + " and bias " +
                                    shape_string(bias.shape()) + " its length");
    Array<T> out = kernels::empty_array<T>(x.shape());
    std::vector<T> mean(rows), rstd(rows);
    ln_forward(x.value().data(), weight.value().data(), bias.value().data(), out.data(), mean.data(), rstd.data(), rows, n,
               static_cast<T>(eps));
    return record_op<T>("layer_norm", std::move(out), {x, weight, bias}, Reads::inputs,
                        [rows, n, mean = std::move(mean), rstd = std::move(rstd)](Node<T>& self) {
        Node<T>& nx = *self.inputs[0];
        Node<T>& nw = *self.inputs[1];
        Node<T>& nb = *self.inputs[2];
        Array<T> dx = kernels::empty_array<T>(kernels::shape_of(nx.value));
        Array<T> dw = xt::zeros<T>(kernels::shape_of(nw.value)), db = xt::zeros<T>(kernels::shape_of(nb.value));
        ln_backward(nx.value.data(), nw.value.data(), self.grad.data(), mean.data(), rstd.data(), dx.data(), dw.data(),
                    db.data(), rows, n);
        if (nx.requires_grad) accumulate_grad(nx, std::move(dx));
        if (nw.requires_grad) accumulate_grad(nw, std::move(dw));
        if (nb.requires_grad) accumulate_grad(nb, std::move(db));
    });
}

template Var<float> masked_softmax(const Var<float>&, const xt::xarray<bool>&, std::size_t);
template Var<double> masked_softmax(const Var<double>&, const xt::xarray<bool>&, std::size_t);
template Var<float> layer_norm(const Var<float>&, const Var<float>&, const Var<float>&, double);
template Var<double> layer_norm(const Var<double>&, const Var<double>&, const Var<double>&, double);
}  // namespace attn::what_if
