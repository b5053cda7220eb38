// Optimizers, gradient clipping and learning-rate schedules. Adam is step-for-step equal to
// torch.optim.Adam (tested against PyTorch's numbers). Introduced in chapter 01.
#pragma once
#include "common/autodiff/var.hpp"

#include <vector>

namespace attn {

// p <- p - lr * v,  v <- momentum * v + grad   (momentum 0: plain gradient descent)
template <class T>
class SGD {
public:
    SGD(std::vector<Var<T>> parameters, double lr, double momentum = 0.0);
    void step();
    void zero_grad();
    void set_lr(double lr) { lr_ = lr; }
    double lr() const { return lr_; }

private:
    std::vector<Var<T>> parameters_;
    std::vector<Array<T>> velocity_;
    double lr_, momentum_;
};

// m <- b1 m + (1 - b1) g,  v <- b2 v + (1 - b2) g^2,
// p <- p - lr * (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)
// with g = grad + weight_decay * p (L2, as torch.optim.Adam). Parameters without a gradient
// are skipped, as in PyTorch.
template <class T>
class Adam {
public:
    Adam(std::vector<Var<T>> parameters, double lr = 1e-3, double beta1 = 0.9, double beta2 = 0.999,
         double eps = 1e-8, double weight_decay = 0.0);
    void step();
    void zero_grad();
    void set_lr(double lr) { lr_ = lr; }
    double lr() const { return lr_; }
    long steps_taken() const { return t_; }

private:
    std::vector<Var<T>> parameters_;
    std::vector<Array<T>> m_, v_;
    double lr_, beta1_, beta2_, eps_, weight_decay_;
    long t_ = 0;
};

// Scales all gradients together so their global L2 norm is at most max_norm (as
// torch.nn.utils.clip_grad_norm_); returns the norm before clipping.
template <class T>
double clip_grad_norm(const std::vector<Var<T>>& parameters, double max_norm);

// The learning rate at training step `step` (counted from 1).
struct ConstantSchedule {
    double lr;
    double at(long step) const { return lr; }
};

// Linear warm-up to peak_lr over warmup_steps, then decay like 1 / sqrt(step):
//   lr(step) = peak_lr * min(step / warmup_steps, sqrt(warmup_steps / step))
// This is the Transformer's schedule (Vaswani et al. 2017), written with its peak value.
struct WarmupInverseSqrtSchedule {
    double peak_lr;
    long warmup_steps;
    double at(long step) const;
};

}  // namespace attn
