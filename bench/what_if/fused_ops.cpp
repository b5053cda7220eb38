// The fused kernels of the what-if benchmark (see fused_ops.hpp).
#include "bench/what_if/fused_ops.hpp"

#include "chapters/00_foundations/softmax.hpp"
#include "chapters/00_foundations/softmax_backward.hpp"
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
    // Row r of the scores (batch * heads, n_q, n_k) obeys row (r / (heads n_q)) n_q + r % n_q of
    // blocked (batch, n_q, n_k); nullptr: no mask, every key allowed. The closure keeps its own
    // handle on the mask's entries for the backward pass.
    const auto blocked_row = [blocked, masked, heads, n_q, n](std::size_t r) -> const bool* {
        return masked ? blocked.data() + ((r / (heads * n_q)) * n_q + r % n_q) * n : nullptr;
    };

    // X = scores + (1 - allowed) * blocked_score, the penalty adding -0 where a key is allowed.
    Matrix<T> X = Matrix<T>::from_shape({rows, n});
    const T* s = scores.value().data();
    const T penalty = static_cast<T>(ch03::blocked_score);
    for (std::size_t r = 0; r < rows; ++r) {
        const bool* b = blocked_row(r);
        for (std::size_t j = 0; j < n; ++j) X(r, j) = s[r * n + j] + (b && b[j] ? penalty : -T(0));
    }
    Matrix<T> Y = ch00::softmax(X);   // exercise 00.1, as the composition calls it
    for (std::size_t r = 0; r < rows && masked; ++r) {   // times allowed
        const bool* b = blocked_row(r);
        for (std::size_t j = 0; j < n; ++j) Y(r, j) = Y(r, j) * (b[j] ? T(0) : T(1));
    }
    Array<T> out(std::move(Y));
    out.reshape(scores.shape());

    // dX = softmax_backward(Y, dY allowed): the product's gradient, then exercise 00.2's.
    return record_op<T>("masked_softmax", std::move(out), {scores}, Reads::output,
                        [rows, n, blocked_row](Node<T>& self) {
        Node<T>& in = *self.inputs[0];
        if (!in.requires_grad) return;
        Matrix<T> Y = Matrix<T>::from_shape({rows, n}), dY = Matrix<T>::from_shape({rows, n});
        std::copy(self.value.data(), self.value.data() + self.value.size(), Y.data());
        for (std::size_t r = 0; r < rows; ++r) {
            const bool* b = blocked_row(r);
            for (std::size_t j = 0; j < n; ++j) dY(r, j) = self.grad.data()[r * n + j] * (b && b[j] ? T(0) : T(1));
        }
        Array<T> g(ch00::softmax_backward(Y, dY));
        g.reshape(kernels::shape_of(self.value));
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
