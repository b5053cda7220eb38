// Matrix products and their gradients, all through BLAS gemm (see ops.hpp).
#include "common/autodiff/blas.hpp"
#include "common/autodiff/kernels.hpp"
#include "common/autodiff/ops.hpp"

namespace attn {

namespace {

struct GemmShape {
    std::size_t M, N, K;   // op(A): (M, K), op(B): (K, N)
};

// Reads M, N, K off A (..., M, K) or A^T, and B (K, N) or B^T; throws naming the shapes.
GemmShape matmul_shape(const Shape& a, const Shape& b, bool transpose_a, bool transpose_b) {
    const bool ok_rank = b.size() == 2 && a.size() >= 2 && (!transpose_a || a.size() == 2);
    if (ok_rank) {
        std::size_t rows = 1;
        for (std::size_t d = 0; d + 1 < a.size(); ++d) rows *= a[d];
        const std::size_t M = transpose_a ? a[1] : rows, K = transpose_a ? a[0] : a.back();
        const std::size_t K_b = transpose_b ? b[1] : b[0], N = transpose_b ? b[0] : b[1];
        if (K == K_b) return {M, N, K};
    }
    throw std::invalid_argument("matmul: cannot multiply A " + shape_string(a) + (transpose_a ? "^T" : "") + " by B " +
                                shape_string(b) + (transpose_b ? "^T" : "") +
                                " (A is (..., M, K), or (K, M) when transposed; B is (K, N) or (N, K))");
}

// The gradients of C = op(A) op(B) for one gemm, written into dA and dB (beta = 0) or added
// to what they hold (beta = 1):   d op(A) = dC op(B)^T,   d op(B) = op(A)^T dC.
template <class T>
void gemm_backward(bool ta, bool tb, const GemmShape& s, const T* A, const T* B, const T* dC, T* dA, T* dB,
                   T beta_a, T beta_b) {
    if (dA) {
        if (!ta) blas::gemm<T>(false, !tb, s.M, s.K, s.N, T(1), dC, B, beta_a, dA);   // dA = dC op(B)^T   (M, K)
        else blas::gemm<T>(tb, true, s.K, s.M, s.N, T(1), B, dC, beta_a, dA);         // dA = op(B) dC^T   (K, M)
    }
    if (dB) {
        if (!tb) blas::gemm<T>(!ta, false, s.K, s.N, s.M, T(1), A, dC, beta_b, dB);   // dB = op(A)^T dC   (K, N)
        else blas::gemm<T>(true, ta, s.N, s.K, s.M, T(1), dC, A, beta_b, dB);         // dB = dC^T op(A)   (N, K)
    }
}

// Where a gradient goes: a fresh buffer that gemm writes (beta 0, no zero-filling first), or
// the existing gradient that it adds to (beta 1).
template <class T>
T* gradient_target(Node<T>& node, T& beta) {
    if (!node.requires_grad) return nullptr;
    beta = node.grad.size() > 0 ? T(1) : T(0);
    if (beta == T(0)) node.grad = Array<T>::from_shape(node.value.shape());
    return node.grad.data();
}

}  // namespace

template <class T>
Var<T> matmul(const Var<T>& A, const Var<T>& B, bool transpose_a, bool transpose_b) {
    const GemmShape s = matmul_shape(A.shape(), B.shape(), transpose_a, transpose_b);
    Shape out_shape = A.shape();
    if (transpose_a) out_shape = {s.M, s.N};
    else out_shape.back() = s.N;
    Array<T> C = kernels::empty_array<T>(out_shape);   // (..., M, N)
    blas::gemm<T>(transpose_a, transpose_b, s.M, s.N, s.K, T(1), A.value().data(), B.value().data(), T(0), C.data());
    return record_op<T>("matmul", std::move(C), {A, B}, Reads::inputs, [=](Node<T>& self) {
        Node<T>& a = *self.inputs[0];
        Node<T>& b = *self.inputs[1];
        T beta_a = 0, beta_b = 0;
        // For A A^T, b is a: dA is written first, so b's target is the same buffer with beta 1
        // and the second product adds to the first.
        T* dA = gradient_target(a, beta_a);
        T* dB = gradient_target(b, beta_b);
        // C = op(A) op(B)
        gemm_backward<T>(transpose_a, transpose_b, s, a.value.data(), b.value.data(), self.grad.data(), dA, dB, beta_a, beta_b);
    });
}

template <class T>
Var<T> linear(const Var<T>& x, const Var<T>& W, const Var<T>& b) {
    const GemmShape s = matmul_shape(x.shape(), W.shape(), false, true);
    if (b.dim() != 1 || b.shape(0) != s.N)
        throw std::invalid_argument("linear: bias of shape " + shape_string(b.shape()) + " for " + std::to_string(s.N) +
                                    " outputs (weight " + shape_string(W.shape()) + "); expected (" +
                                    std::to_string(s.N) + ",)");
    Shape out_shape = x.shape();
    out_shape.back() = s.N;
    // Unfused: y = matmul(x, W, false, true) + b, two passes over y. Here y starts as b in every
    // row and gemm adds x W^T to it (beta = 1). OpenBLAS adds its product to C once per block of
    // K = in entries (320 wide on the development machine's CPU), so up to
    // `one_block` the sums and roundings are the unfused ones bit for bit, and the lessons' numbers
    // stay. Wider inputs would round once more, so they take the two passes.
    constexpr std::size_t one_block = 256;
    Array<T> y = kernels::empty_array<T>(out_shape);   // (..., out)
    const T* bias = b.value().data();
    T* rows = y.data();
    if (s.K <= one_block) {
        for (std::size_t r = 0; r < s.M; ++r) std::copy(bias, bias + s.N, rows + r * s.N);
        blas::gemm<T>(false, true, s.M, s.N, s.K, T(1), x.value().data(), W.value().data(), T(1), rows);
    } else {
        blas::gemm<T>(false, true, s.M, s.N, s.K, T(1), x.value().data(), W.value().data(), T(0), rows);
        for (std::size_t r = 0; r < s.M; ++r)
            for (std::size_t j = 0; j < s.N; ++j) rows[r * s.N + j] += bias[j];
    }
    return record_op<T>("linear", std::move(y), {x, W, b}, Reads::inputs, [=](Node<T>& self) {
        Node<T>& nx = *self.inputs[0];
        Node<T>& nW = *self.inputs[1];
        Node<T>& nb = *self.inputs[2];
        // db = dy summed over the rows (as the unfused add's backward sums a broadcast bias)
        if (nb.requires_grad) accumulate_grad(nb, kernels::reduce_to_shape(self.grad, {s.N}));
        T beta_x = 0, beta_W = 0;
        T* dx = gradient_target(nx, beta_x);
        T* dW = gradient_target(nW, beta_W);
        // dx = dy W,  dW = dy^T x: matmul's backward
        gemm_backward<T>(false, true, s, nx.value.data(), nW.value.data(), self.grad.data(), dx, dW, beta_x, beta_W);
    });
}

template <class T>
Var<T> bmm(const Var<T>& A, const Var<T>& B, bool transpose_a, bool transpose_b) {
    if (A.dim() != 3 || B.dim() != 3 || A.shape(0) != B.shape(0))
        throw std::invalid_argument("bmm: expected A (batch, M, K) and B (batch, K, N), got " +
                                    shape_string(A.shape()) + " and " + shape_string(B.shape()));
    const std::size_t batch = A.shape(0);
    const GemmShape s = matmul_shape({A.shape(1), A.shape(2)}, {B.shape(1), B.shape(2)}, transpose_a, transpose_b);
    Array<T> C = kernels::empty_array<T>({batch, s.M, s.N});   // (batch, M, N)
    const std::size_t a_step = s.M * s.K, b_step = s.K * s.N, c_step = s.M * s.N;
    for (std::size_t i = 0; i < batch; ++i)
        blas::gemm<T>(transpose_a, transpose_b, s.M, s.N, s.K, T(1), A.value().data() + i * a_step,
                      B.value().data() + i * b_step, T(0), C.data() + i * c_step);
    return record_op<T>("bmm", std::move(C), {A, B}, Reads::inputs, [=](Node<T>& self) {
        Node<T>& a = *self.inputs[0];
        Node<T>& b = *self.inputs[1];
        T beta_a = 0, beta_b = 0;   // as in matmul: a fresh gradient is written, an existing one added to
        T* dA = gradient_target(a, beta_a);
        T* dB = gradient_target(b, beta_b);
        for (std::size_t i = 0; i < batch; ++i)   // C[i] = op(A[i]) op(B[i])
            gemm_backward<T>(transpose_a, transpose_b, s, a.value.data() + i * a_step, b.value.data() + i * b_step,
                             self.grad.data() + i * c_step, dA ? dA + i * a_step : nullptr,
                             dB ? dB + i * b_step : nullptr, beta_a, beta_b);
    });
}

// ---- instantiations: do not edit ----
template Var<float> matmul(const Var<float>&, const Var<float>&, bool, bool);
template Var<double> matmul(const Var<double>&, const Var<double>&, bool, bool);
template Var<float> linear(const Var<float>&, const Var<float>&, const Var<float>&);
template Var<double> linear(const Var<double>&, const Var<double>&, const Var<double>&);
template Var<float> bmm(const Var<float>&, const Var<float>&, bool, bool);
template Var<double> bmm(const Var<double>&, const Var<double>&, bool, bool);

}  // namespace attn
