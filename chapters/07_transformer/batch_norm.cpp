// Batch normalisation (see batch_norm.hpp).
#include "chapters/07_transformer/batch_norm.hpp"

#include "common/autodiff/ops.hpp"

#include <stdexcept>
#include <string>

namespace attn::ch07 {

template <class T>
RunningStatistics<T> fresh_statistics(std::size_t features) {
    return {Array<T>(xt::zeros<T>({features})), Array<T>(xt::ones<T>({features})), 0};
}

template <class T>
Var<T> batch_norm(const Var<T>& x, const Var<T>& weight, const Var<T>& bias, RunningStatistics<T>& running,
                  bool training, double momentum, double eps) {
    const Shape shape = x.shape();
    const std::size_t features = shape.empty() ? 0 : shape.back();
    if (features == 0 || weight.shape() != Shape{features} || bias.shape() != Shape{features} ||
        running.mean.size() != features || running.variance.size() != features)
        throw std::invalid_argument("batch_norm: weight " + shape_string(weight.shape()) + ", bias " +
                                    shape_string(bias.shape()) + " and the running statistics must have the size of x's last axis " +
                                    shape_string(shape));
    if (!training) {
        const Array<T> scale = T(1) / xt::sqrt(running.variance + static_cast<T>(eps));
        return (x - constant<T>(running.mean)) * constant<T>(scale) * weight + bias;
    }
    // Every position of every sequence is one sample of each feature: one row per sample.
    const std::size_t samples = x.value().size() / features;
    if (samples < 2)
        throw std::invalid_argument("batch_norm: training needs at least two samples of each feature, x is " + shape_string(shape));
    const Var<T> rows = reshape(x, {samples, features});
    const Var<T> mu = mean(rows, 0, true);                        // (1, features)
    const Var<T> centred = rows - mu;
    const Var<T> variance = mean(centred * centred, 0, true);     // biased: divides by the samples
    const Var<T> normalised = centred / sqrt(variance + static_cast<T>(eps));

    const T m = static_cast<T>(momentum), unbiased = static_cast<T>(double(samples) / double(samples - 1));
    running.mean = (T(1) - m) * running.mean + m * xt::reshape_view(mu.value(), {features});
    running.variance = (T(1) - m) * running.variance + m * unbiased * xt::reshape_view(variance.value(), {features});
    ++running.batches;
    return reshape(normalised, shape) * weight + bias;
}

// ---- instantiations ----
template RunningStatistics<float> fresh_statistics(std::size_t);
template RunningStatistics<double> fresh_statistics(std::size_t);
template Var<float> batch_norm(const Var<float>&, const Var<float>&, const Var<float>&, RunningStatistics<float>&, bool,
                               double, double);
template Var<double> batch_norm(const Var<double>&, const Var<double>&, const Var<double>&, RunningStatistics<double>&,
                                bool, double, double);

}  // namespace attn::ch07
