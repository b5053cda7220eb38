// gemm through cblas (see blas.hpp). This file includes <cblas.h> and no xtensor-blas header,
// since the two declare cblas differently (common/README.md, "xtensor pitfalls").
#include "common/autodiff/blas.hpp"

#include <cblas.h>

namespace attn::blas {

template <>
void gemm<float>(bool transpose_a, bool transpose_b, std::size_t M, std::size_t N, std::size_t K, float alpha,
                 const float* A, const float* B, float beta, float* C) {
    if (M == 0 || N == 0) return;
    // Leading dimensions of the stored (not transposed) matrices.
    const int lda = static_cast<int>(transpose_a ? M : K), ldb = static_cast<int>(transpose_b ? K : N);
    cblas_sgemm(CblasRowMajor, transpose_a ? CblasTrans : CblasNoTrans, transpose_b ? CblasTrans : CblasNoTrans,
                static_cast<int>(M), static_cast<int>(N), static_cast<int>(K), alpha, A, lda, B, ldb, beta, C,
                static_cast<int>(N));
}

template <>
void gemm<double>(bool transpose_a, bool transpose_b, std::size_t M, std::size_t N, std::size_t K, double alpha,
                  const double* A, const double* B, double beta, double* C) {
    if (M == 0 || N == 0) return;
    const int lda = static_cast<int>(transpose_a ? M : K), ldb = static_cast<int>(transpose_b ? K : N);
    cblas_dgemm(CblasRowMajor, transpose_a ? CblasTrans : CblasNoTrans, transpose_b ? CblasTrans : CblasNoTrans,
                static_cast<int>(M), static_cast<int>(N), static_cast<int>(K), alpha, A, lda, B, ldb, beta, C,
                static_cast<int>(N));
}

const char* core_name() { return openblas_get_corename(); }
int threads() { return openblas_get_num_threads(); }
void set_threads(int threads) { openblas_set_num_threads(threads); }

}  // namespace attn::blas
