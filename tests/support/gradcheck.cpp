// Gradient checks of autodiff ops (see gradcheck.hpp).
#include "tests/support/gradcheck.hpp"

#include "common/autodiff/ops.hpp"
#include "common/random.hpp"
#include "tests/support/gradients.hpp"

#include <sstream>

namespace support {

xt::xarray<double> random_array(const std::vector<std::size_t>& shape, std::uint64_t seed, double scale) {
    attn::Rng rng(seed);
    xt::xarray<double> a = xt::zeros<double>(shape);
    for (double& v : a) v = scale * rng.normal();
    return a;
}

GradcheckResult gradcheck(const VarFunction& f, const std::vector<xt::xarray<double>>& inputs, std::uint64_t seed,
                          double h) {
    // The output's shape decides the shape of the random upstream gradient R.
    std::vector<attn::Var<double>> probe;
    for (const xt::xarray<double>& x : inputs) probe.push_back(attn::constant<double>(x));
    const xt::xarray<double> out = f(probe).value();
    const xt::xarray<double> R = random_array(std::vector<std::size_t>(out.shape().begin(), out.shape().end()), seed + 99);

    std::vector<attn::Var<double>> leaves;
    for (const xt::xarray<double>& x : inputs) leaves.push_back(attn::parameter<double>(x));
    const attn::Var<double> loss = attn::sum(f(leaves) * attn::constant<double>(R));
    attn::backward(loss);

    GradcheckResult result;
    std::ostringstream report;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const auto numeric_loss = [&](const xt::xarray<double>& moved) {
            std::vector<attn::Var<double>> args;
            for (std::size_t j = 0; j < inputs.size(); ++j) args.push_back(attn::constant<double>(j == i ? moved : inputs[j]));
            const double total = xt::sum(f(args).value() * R)();
            return total;
        };
        const xt::xarray<double> numeric = numerical_gradient(numeric_loss, inputs[i], h);
        const xt::xarray<double> analytic =
            leaves[i].has_grad() ? leaves[i].grad() : xt::xarray<double>(xt::zeros<double>(inputs[i].shape()));
        const double error = attn::max_relative_error(analytic, numeric);
        report << "input " << i << ": relative error " << error << "\n";
        if (error > result.worst_error || i == 0) {
            result.worst_error = error;
            result.worst_input = i;
        }
    }
    result.report = report.str();
    return result;
}

}  // namespace support
