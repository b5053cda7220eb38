// The elementary differentiable ops every chapter composes. Each has its forward and its
// backward side by side in one of the ops_*.cpp files, and a numerical gradient check in
// tests/common/test_autodiff_ops.cpp. Taught concepts (softmax, GRU, attention, layer norm)
// are not here: they belong to their chapters (docs/design.md, "One home per concept"); tiled
// attention for long sequences, once here as streaming_attention, is chapter 08's.
// Introduced in chapter 01.
#pragma once
#include "common/autodiff/var.hpp"

#include <cstdint>
#include <vector>

namespace attn {

// Helper for scalar arguments: lets `2 * x` and `1 - z` work for Var<float> and Var<double>.
template <class T> struct Same { using type = T; };
template <class T> using Scalar = typename Same<T>::type;

// ---- Matrix products (ops_matmul.cpp; BLAS gemm, never loops) ---------------------------
// C = op(A) op(B), op = identity or transpose of the last two axes.
// A: (..., M, K) with any leading axes (flattened into rows), B: (K, N)  ->  (..., M, N).
// With transpose_a, A must be 2-D. Linear layers call matmul(X, W, false, true).
template <class T> Var<T> matmul(const Var<T>& A, const Var<T>& B, bool transpose_a = false, bool transpose_b = false);
// A linear layer in one op: x W^T + b, with x (..., in), W (out, in), b (out,) -> (..., out).
// The same numbers as matmul(x, W, false, true) + b, in one node; for in <= 256 also one pass
// over the output fewer: gemm adds x W^T to rows that already hold b (ops_matmul.cpp says why
// only then).
template <class T> Var<T> linear(const Var<T>& x, const Var<T>& W, const Var<T>& b);
// Batched: A: (batch, M, K), B: (batch, K, N) -> (batch, M, N), one gemm per batch entry.
template <class T> Var<T> bmm(const Var<T>& A, const Var<T>& B, bool transpose_a = false, bool transpose_b = false);

// ---- Element-wise with broadcasting (ops_elementwise.cpp) --------------------------------
// Shapes broadcast as in NumPy; the gradient of a broadcast input is summed back to its shape.
// The ops whose backward does not read an input take it by value: a temporary handed to them
// (the sum in tanh(a + b)) lends its entries to the result instead of a fresh array, when
// nothing else can read them again (ops_elementwise.cpp says when). A named Var is copied in,
// which only counts a reference: it is never written. std::move(v) into one of them hands v
// over like a temporary: v is empty afterwards.
template <class T> Var<T> operator+(Var<T> a, Var<T> b);
template <class T> Var<T> operator-(Var<T> a, Var<T> b);
template <class T> Var<T> operator*(const Var<T>& a, const Var<T>& b);
template <class T> Var<T> operator/(const Var<T>& a, const Var<T>& b);
template <class T> Var<T> operator-(Var<T> a);
template <class T> Var<T> operator+(Var<T> a, Scalar<T> s);
template <class T> Var<T> operator+(Scalar<T> s, Var<T> a);
template <class T> Var<T> operator-(Var<T> a, Scalar<T> s);
template <class T> Var<T> operator-(Scalar<T> s, Var<T> a);
template <class T> Var<T> operator*(Var<T> a, Scalar<T> s);
template <class T> Var<T> operator*(Scalar<T> s, Var<T> a);
template <class T> Var<T> operator/(Var<T> a, Scalar<T> s);

template <class T> Var<T> tanh(Var<T> x);      // d/dx = 1 - tanh^2
template <class T> Var<T> sigmoid(Var<T> x);   // d/dx = s (1 - s)
template <class T> Var<T> relu(Var<T> x);      // d/dx = 1 where x > 0
template <class T> Var<T> exp(Var<T> x);
template <class T> Var<T> log(const Var<T>& x);       // x must be positive
template <class T> Var<T> sqrt(Var<T> x);      // x must be positive; d/dx = 1 / (2 sqrt(x))

// ---- Reductions (ops_reduce.cpp) -----------------------------------------------------------
template <class T> Var<T> sum(const Var<T>& x);                                   // all entries -> shape ()
template <class T> Var<T> sum(const Var<T>& x, std::size_t axis, bool keep_dims = false);
template <class T> Var<T> mean(const Var<T>& x);
template <class T> Var<T> mean(const Var<T>& x, std::size_t axis, bool keep_dims = false);
// The gradient goes to the first maximum of each slice.
template <class T> Var<T> max(const Var<T>& x, std::size_t axis, bool keep_dims = false);

// ---- Shapes (ops_shape.cpp) ------------------------------------------------------------------
template <class T> Var<T> reshape(const Var<T>& x, const Shape& shape);    // same number of entries
template <class T> Var<T> permute(const Var<T>& x, const Shape& order);    // output axis i = input axis order[i]
template <class T> Var<T> transpose(const Var<T>& x, std::size_t axis_a, std::size_t axis_b);
template <class T> Var<T> concat(const std::vector<Var<T>>& parts, std::size_t axis);
template <class T> std::vector<Var<T>> split(const Var<T>& x, const Shape& sizes, std::size_t axis);
// Entries start..stop-1 along `axis` (the axis is kept, of length stop - start).
template <class T> Var<T> slice(const Var<T>& x, std::size_t axis, std::size_t start, std::size_t stop);
// Entry `index` along `axis`, with that axis removed: x (batch, T, d), axis 1 -> (batch, d).
// Step t of a sequence in one op (slice + reshape would copy twice).
template <class T> Var<T> select(const Var<T>& x, std::size_t axis, std::size_t index);
// Stacks equal-shaped parts along a new axis: k parts of shape (a, b) -> (a, k, b) for axis 1.
template <class T> Var<T> stack(const std::vector<Var<T>>& parts, std::size_t axis);
// x broadcast to `shape` (NumPy rules), materialized; the gradient sums back. E.g. one
// context vector (batch, 1, H) repeated over every time step: expand(c, {batch, T, H}).
template <class T> Var<T> expand(const Var<T>& x, const Shape& shape);
// Picks entries along `axis` in the order of `indices` (repeats allowed; gradients add up).
template <class T> Var<T> index_select(const Var<T>& x, std::size_t axis, const std::vector<std::size_t>& indices);

// ---- Lookup, regularisation, losses (ops_nn.cpp) -----------------------------------------------
// Rows of `weight` (vocab, d) picked by `ids` of any shape -> (ids..., d). Ids must be in range.
template <class T> Var<T> embedding(const Var<T>& weight, const xt::xarray<std::int64_t>& ids);

class Rng;
// Training: zeroes each entry with probability p and scales the rest by 1 / (1 - p).
// Evaluation (training == false) or p == 0: returns x unchanged.
template <class T> Var<T> dropout(const Var<T>& x, double p, bool training, Rng& rng);

// log softmax over the last axis, computed stably (x - max - log sum exp(x - max)).
template <class T> Var<T> log_softmax(const Var<T>& x);

enum class Reduction { mean, sum };
// Cross-entropy between logits (..., C) and class ids (...): the mean (or sum) over every
// position whose target is not ignore_index of
//   -(1 - eps) log p[target] - eps * mean_c log p[c],     p = softmax(logits), eps = label_smoothing
// (PyTorch's definition). If every target is ignored the mean is 0.
template <class T>
Var<T> cross_entropy(const Var<T>& logits, const xt::xarray<std::int64_t>& targets, std::int64_t ignore_index = -100,
                     double label_smoothing = 0.0, Reduction reduction = Reduction::mean);

}  // namespace attn
