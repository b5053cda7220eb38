// SGD, Adam, gradient clipping and schedules (see optim.hpp).
#include "common/nn/optim.hpp"
#include "common/simd_clones.hpp"

#include <cmath>
#include <stdexcept>

namespace attn {

template <class T>
SGD<T>::SGD(std::vector<Var<T>> parameters, double lr, double momentum)
    : parameters_(std::move(parameters)), lr_(lr), momentum_(momentum) {
    for (const Var<T>& p : parameters_) velocity_.push_back(xt::zeros<T>(p.value().shape()));
}

template <class T>
void SGD<T>::step() {
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
        Var<T> p = parameters_[i];
        if (!p.has_grad()) continue;
        T* w = p.value().data();
        T* vel = velocity_[i].data();
        const T* g = p.grad().data();
        for (std::size_t k = 0; k < p.size(); ++k) {
            vel[k] = static_cast<T>(momentum_) * vel[k] + g[k];
            w[k] -= static_cast<T>(lr_) * vel[k];
        }
    }
}

template <class T>
void SGD<T>::zero_grad() {
    for (const Var<T>& p : parameters_) p.zero_grad();
}

template <class T>
Adam<T>::Adam(std::vector<Var<T>> parameters, double lr, double beta1, double beta2, double eps, double weight_decay)
    : parameters_(std::move(parameters)), lr_(lr), beta1_(beta1), beta2_(beta2), eps_(eps), weight_decay_(weight_decay) {
    for (const Var<T>& p : parameters_) {
        m_.push_back(xt::zeros<T>(p.value().shape()));
        v_.push_back(xt::zeros<T>(p.value().shape()));
    }
}

namespace {
template <class T>
struct AdamFactors {
    T b1, b2, weight_decay, step_size, root_c2, eps;
};

// One parameter's update, a loop compiled for AVX-512, AVX2 and plain x86-64 (see
// common/simd_clones.hpp; nothing in it may throw).
template <class T>
COURSE_SIMD_CLONES void adam_update(T* w, T* m, T* v, const T* grad, std::size_t n, const AdamFactors<T> f) noexcept {
    for (std::size_t k = 0; k < n; ++k) {
        const T g = grad[k] + f.weight_decay * w[k];
        m[k] = f.b1 * m[k] + (1 - f.b1) * g;
        v[k] = f.b2 * v[k] + (1 - f.b2) * g * g;
        // the same arithmetic order as PyTorch: lr / c1 * m / (sqrt(v) / sqrt(c2) + eps)
        w[k] -= f.step_size * m[k] / (std::sqrt(v[k]) / f.root_c2 + f.eps);
    }
}
}  // namespace

template <class T>
void Adam<T>::step() {
    ++t_;
    // Bias corrections undo the zero start of m and v (they matter most in the first steps).
    const double correction1 = 1.0 - std::pow(beta1_, static_cast<double>(t_));
    const double correction2 = 1.0 - std::pow(beta2_, static_cast<double>(t_));
    const T b1 = static_cast<T>(beta1_), b2 = static_cast<T>(beta2_), wd = static_cast<T>(weight_decay_);
    const T step_size = static_cast<T>(lr_ / correction1), root_c2 = static_cast<T>(std::sqrt(correction2));
    const T eps = static_cast<T>(eps_);
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
        Var<T> p = parameters_[i];
        if (!p.has_grad()) continue;
        T* w = p.value().data();
        T* m = m_[i].data();
        T* v = v_[i].data();
        adam_update(w, m, v, p.grad().data(), p.size(), AdamFactors<T>{b1, b2, wd, step_size, root_c2, eps});
    }
}

template <class T>
void Adam<T>::zero_grad() {
    for (const Var<T>& p : parameters_) p.zero_grad();
}

template <class T>
double clip_grad_norm(const std::vector<Var<T>>& parameters, double max_norm) {
    double squares = 0;
    for (const Var<T>& p : parameters)
        if (p.has_grad())
            for (std::size_t k = 0; k < p.size(); ++k) squares += double(p.grad().data()[k]) * p.grad().data()[k];
    const double norm = std::sqrt(squares);
    const double scale = max_norm / (norm + 1e-6);   // PyTorch's epsilon keeps a zero norm finite
    if (scale < 1.0)
        for (const Var<T>& p : parameters)
            if (p.has_grad()) p.node()->grad *= static_cast<T>(scale);
    return norm;
}

double WarmupInverseSqrtSchedule::at(long step) const {
    if (step < 1 || warmup_steps < 1) throw std::invalid_argument("WarmupInverseSqrtSchedule: steps count from 1");
    const double s = static_cast<double>(step), w = static_cast<double>(warmup_steps);
    return peak_lr * std::min(s / w, std::sqrt(w / s));
}

// ---- instantiations: do not edit ----
template class SGD<float>;
template class SGD<double>;
template class Adam<float>;
template class Adam<double>;
template double clip_grad_norm(const std::vector<Var<float>>&, double);
template double clip_grad_norm(const std::vector<Var<double>>&, double);

}  // namespace attn
