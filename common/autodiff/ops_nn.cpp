// Embedding lookup, dropout, log-softmax and cross-entropy, and their gradients (see ops.hpp).
#include "common/autodiff/kernels.hpp"
#include "common/autodiff/ops.hpp"
#include "common/random.hpp"
#include "common/row_math.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace attn {

template <class T>
Var<T> embedding(const Var<T>& weight, const xt::xarray<std::int64_t>& ids) {
    if (weight.dim() != 2)
        throw std::invalid_argument("embedding: the weight must be (vocab, d), got " + shape_string(weight.shape()));
    const std::size_t vocab = weight.shape(0), d = weight.shape(1);
    for (std::size_t k = 0; k < ids.size(); ++k)
        if (ids.data()[k] < 0 || static_cast<std::size_t>(ids.data()[k]) >= vocab)
            throw std::invalid_argument("embedding: token id " + std::to_string(ids.data()[k]) +
                                        " is outside the vocabulary of " + std::to_string(vocab));
    Shape out_shape(ids.shape().begin(), ids.shape().end());
    out_shape.push_back(d);
    Array<T> out = kernels::empty_array<T>(out_shape);   // (ids..., d)
    for (std::size_t k = 0; k < ids.size(); ++k)
        std::memcpy(out.data() + k * d, weight.value().data() + ids.data()[k] * d, d * sizeof(T));
    return record_op<T>("embedding", std::move(out), {weight}, Reads::nothing, [ids, d](Node<T>& self) {
        // out[k] = W[ids[k]]:  dW[ids[k]] += dout[k] (a token seen twice gets both gradients)
        T* g = kernels::grad_buffer(*self.inputs[0]).data();
        for (std::size_t k = 0; k < ids.size(); ++k)
            for (std::size_t j = 0; j < d; ++j) g[ids.data()[k] * d + j] += self.grad.data()[k * d + j];
    });
}

template <class T>
Var<T> dropout(const Var<T>& x, double p, bool training, Rng& rng) {
    if (!(p >= 0.0 && p < 1.0)) throw std::invalid_argument("dropout: p must be in [0, 1), got " + std::to_string(p));
    if (!training || p == 0.0) return x;
    const T keep_scale = T(1) / static_cast<T>(1.0 - p);   // keeps the expected value unchanged
    Array<T> mask = kernels::empty_array<T>(x.shape());
    for (std::size_t k = 0; k < mask.size(); ++k) mask.data()[k] = rng.uniform() < p ? T(0) : keep_scale;
    Array<T> out = x.value() * mask;
    return record_op<T>("dropout", std::move(out), {x}, Reads::nothing, [mask](Node<T>& self) {
        Array<T> g = self.grad * mask;   // out = x * mask:  dx = dout * mask
        accumulate_grad(*self.inputs[0], std::move(g));
    });
}

namespace {

// For each row of length n of x (rows, n): log_p = x - max - log(sum(exp(x - max))) and
// p = exp(log_p). The exponentials run as one whole-array xtensor expression, which xsimd
// vectorizes; this is most of the cost of a loss over a small vocabulary. (row_math::exp
// would be faster, but it rounds differently, and on the Transformer's step it bought
// nothing measurable: not worth changing every chapter's numbers.) A row's maximum comes
// from row_math's vectorized loop: the same value as a scan from the left, but for the sign
// of a zero maximum, which changes no probability.
template <class T>
void log_softmax_rows(const T* x, std::size_t rows, std::size_t n, Array<T>& log_p, Array<T>& p) {
    log_p = Array<T>::from_shape({rows, n});
    for (std::size_t r = 0; r < rows; ++r) {
        const T* row = x + r * n;
        const T m = row_math::max(row, n);
        for (std::size_t j = 0; j < n; ++j) log_p.data()[r * n + j] = row[j] - m;   // shifted: all <= 0
    }
    p = xt::exp(log_p);
    std::vector<T> totals(rows);
    kernels::row_sums(p.data(), rows, n, totals.data());
    for (std::size_t r = 0; r < rows; ++r) {
        T* e = p.data() + r * n;
        const T log_total = std::log(totals[r]), inverse = T(1) / totals[r];
        for (std::size_t j = 0; j < n; ++j) {
            log_p.data()[r * n + j] -= log_total;
            e[j] *= inverse;
        }
    }
}

}  // namespace

template <class T>
Var<T> log_softmax(const Var<T>& x) {
    if (x.dim() == 0 || x.shape(x.dim() - 1) == 0)
        throw std::invalid_argument("log_softmax: needs a non-empty last axis, got " + shape_string(x.shape()));
    const std::size_t n = x.shape(x.dim() - 1), rows = x.size() / n;
    Array<T> out, p;
    log_softmax_rows(x.value().data(), rows, n, out, p);
    out.reshape(x.shape());
    return record_op<T>("log_softmax", std::move(out), {x}, Reads::nothing, [rows, n, p](Node<T>& self) {
        // y = x - logsumexp(x):  dx = dy - softmax(x) * sum(dy)
        Array<T> g = kernels::empty_array<T>(kernels::shape_of(self.grad));
        std::vector<T> totals(rows);
        kernels::row_sums(self.grad.data(), rows, n, totals.data());
        for (std::size_t r = 0; r < rows; ++r) {
            const T* dy = self.grad.data() + r * n;
            for (std::size_t j = 0; j < n; ++j) g.data()[r * n + j] = dy[j] - p.data()[r * n + j] * totals[r];
        }
        accumulate_grad(*self.inputs[0], std::move(g));
    });
}

template <class T>
Var<T> cross_entropy(const Var<T>& logits, const xt::xarray<std::int64_t>& targets, std::int64_t ignore_index,
                     double label_smoothing, Reduction reduction) {
    const std::size_t C = logits.dim() > 0 ? logits.shape(logits.dim() - 1) : 0;
    if (C == 0 || logits.size() / C != targets.size())
        throw std::invalid_argument("cross_entropy: logits " + shape_string(logits.shape()) +
                                    " do not match targets " + shape_string(kernels::shape_of(targets)) +
                                    " (expected logits (..., classes) and targets (...))");
    if (!(label_smoothing >= 0.0 && label_smoothing <= 1.0))
        throw std::invalid_argument("cross_entropy: label_smoothing must be in [0, 1]");
    const std::size_t N = targets.size();
    Array<T> log_p, p;   // (N, C) log-probabilities and probabilities
    log_softmax_rows(logits.value().data(), N, C, log_p, p);
    const T eps = static_cast<T>(label_smoothing), on_target = 1 - eps, uniform = eps / static_cast<T>(C);
    // Label smoothing spreads eps over every class, so it needs each row's sum of log p;
    // without it (eps = 0) that term is 0 and is not computed.
    std::vector<T> log_p_sums(eps > 0 ? N : 0);
    if (eps > 0) kernels::row_sums(log_p.data(), N, C, log_p_sums.data());
    T total = 0;
    std::size_t counted = 0;
    for (std::size_t r = 0; r < N; ++r) {
        const std::int64_t t = targets.data()[r];
        if (t == ignore_index) continue;
        if (t < 0 || static_cast<std::size_t>(t) >= C)
            throw std::invalid_argument("cross_entropy: target " + std::to_string(t) + " is not a class in [0, " +
                                        std::to_string(C) + ")");
        const T on_target_term = on_target * log_p.data()[r * C + static_cast<std::size_t>(t)];
        total -= eps > 0 ? on_target_term + uniform * log_p_sums[r] : on_target_term;
        ++counted;
    }
    const T scale = reduction == Reduction::sum ? T(1) : T(1) / static_cast<T>(std::max<std::size_t>(counted, 1));
    Array<T> out = xt::zeros<T>(Shape{});
    out() = total * scale;
    return record_op<T>("cross_entropy", std::move(out), {logits}, Reads::nothing,
                        [=, p = std::move(p)](Node<T>& self) {
        // loss_r = -sum_c q_c log p_c with q = (1 - eps) onehot(t) + eps / C:  dlogits_r = p - q
        const T d = self.grad.data()[0] * scale;
        Array<T> g = kernels::empty_array<T>(kernels::shape_of(self.inputs[0]->value));
        for (std::size_t r = 0; r < N; ++r) {
            const std::int64_t t = targets.data()[r];
            if (t == ignore_index) {   // an ignored row gets no gradient; every other row is written below
                std::fill(g.data() + r * C, g.data() + (r + 1) * C, T(0));
                continue;
            }
            for (std::size_t c = 0; c < C; ++c) {
                const T q = uniform + (static_cast<std::int64_t>(c) == t ? on_target : T(0));
                g.data()[r * C + c] = d * (p.data()[r * C + c] - q);
            }
        }
        accumulate_grad(*self.inputs[0], std::move(g));
    });
}

// ---- instantiations: do not edit ----
#define ATTN_INSTANTIATE(T)                                                                              \
    template Var<T> embedding(const Var<T>&, const xt::xarray<std::int64_t>&);                         \
    template Var<T> dropout(const Var<T>&, double, bool, Rng&);                                        \
    template Var<T> log_softmax(const Var<T>&);                                                        \
    template Var<T> cross_entropy(const Var<T>&, const xt::xarray<std::int64_t>&, std::int64_t, double, \
                                  Reduction);
ATTN_INSTANTIATE(float)
ATTN_INSTANTIATE(double)

}  // namespace attn
