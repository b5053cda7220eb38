// Tensors for the whole course: the aliases every chapter uses, the exercise stub macro,
// and safe helpers around xtensor 0.24's known pitfalls (common/README.md, "xtensor pitfalls").
// Introduced in chapter 00 ("xtensor in five minutes").
#pragma once
// Every xtensor header, wherever the installed version keeps it; first of all the allocator
// every xt::xarray uses (shared storage, for views).
#include "common/xtensor_compat.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace attn {

// A translation unit that included an xtensor header before this one would see xtensor's own
// allocator, and its arrays would be of another type than the rest of the project's.
static_assert(std::is_same<xt::xarray<float>::allocator_type, SharedAllocator<float>>::value,
              "include xtensor through common/xtensor_compat.hpp (or common/tensor.hpp), never directly");

template <class T> using Vector = xt::xtensor<T, 1>;
template <class T> using Matrix = xt::xtensor<T, 2>;
template <class T> using Tensor3 = xt::xtensor<T, 3>;

// Token ids and lengths: (batch, seq_len) matrices of ids, (batch) vectors of valid lengths.
using IndexVector = xt::xtensor<std::int64_t, 1>;
using IndexMatrix = xt::xtensor<std::int64_t, 2>;

// Thrown by an exercise whose body is still the stub. Its message names the exercise and
// the learner's file: "not implemented yet: exercise 00.1 in exercises/00_foundations/softmax.cpp".
struct NotImplemented : std::logic_error {
    NotImplemented(const std::string& exercise_id, const char* file);
};

// The path of `file` from the course's root folder ("exercises/00_foundations/softmax.cpp"),
// so messages never show where someone's checkout happens to live.
std::string course_relative_path(const std::string& file);

// ---- Safe reductions -----------------------------------------------------------------
// xtensor 0.24 gives wrong numbers when a lazy keep_dims reducer is broadcast
// (X - xt::amax(X, {1}, xt::keep_dims)). These return materialized (rows, 1) columns,
// which broadcast correctly against (rows, cols).

// m[i, 0] = max_j X[i, j]          (rows, cols) -> (rows, 1)
template <class T> Matrix<T> row_max(const Matrix<T>& X);
// s[i, 0] = sum_j X[i, j]          (rows, cols) -> (rows, 1)
template <class T> Matrix<T> row_sum(const Matrix<T>& X);

// The index of the largest entry (the first one on ties). xt::argmax(v, 0) on a 1-D
// tensor returns the argmin in xtensor 0.24 (xtensor#2550); this one is correct.
template <class T> std::size_t argmax(const Vector<T>& v);
// argmax of every row:             (rows, cols) -> (rows)
template <class T> Vector<std::size_t> argmax_rows(const Matrix<T>& X);

// max |a - b| over all entries; throws std::invalid_argument if the shapes differ.
template <class T> T max_abs_diff(const Matrix<T>& a, const Matrix<T>& b);

// The error measure of every gradient check in the course, over tensors of any rank (checks
// run in double precision; a Matrix<double> converts):
//   max |a - b| / max(max (|a| + |b|), 1e-8)      (0 when equal; about 1 when unrelated)
// Throws std::invalid_argument if the shapes differ.
double max_relative_error(const xt::xarray<double>& a, const xt::xarray<double>& b);

}  // namespace attn

// The body of an exercise that is not written yet. Compiles, links, and throws
// attn::NotImplemented when called.
#define COURSE_TODO(id) throw ::attn::NotImplemented((id), __FILE__)
