// Matrix products on raw row-major buffers through OpenBLAS: the only place the toolkit
// calls cblas directly (docs/design.md, "Quality bars": speed). Introduced in chapter 01.
#pragma once
#include <cstddef>

namespace attn::blas {

// C = alpha * op(A) op(B) + beta * C, with op(X) = X or X^T; row-major, contiguous.
// op(A): (M, K), op(B): (K, N), C: (M, N).
template <class T>
void gemm(bool transpose_a, bool transpose_b, std::size_t M, std::size_t N, std::size_t K, T alpha, const T* A,
          const T* B, T beta, T* C);

// The OpenBLAS kernel in use (e.g. "Haswell") and its thread count, for benchmark records.
const char* core_name();
int threads();
void set_threads(int threads);

}  // namespace attn::blas
