// Loading per-tensor .npy files into named parameters (see load_parameters.hpp).
#include "tests/support/load_parameters.hpp"

#include "tests/support/gradients.hpp"

#include "common/xtensor_compat.hpp"

#include <filesystem>
#include <stdexcept>

namespace support {

void load_parameters(const attn::Module<double>& module, const std::string& prefix) {
    for (auto [name, parameter] : module.named_parameters()) {
        const std::string path = data_path(prefix + name + ".npy");
        if (!std::filesystem::is_regular_file(path))
            throw std::runtime_error("load_parameters: no file for parameter " + name + ": " + path);
        attn::Array<double> value = xt::load_npy<double>(path);
        const attn::Shape shape(value.shape().begin(), value.shape().end());
        if (shape != parameter.shape())
            throw std::runtime_error("load_parameters: " + name + " is " + attn::shape_string(parameter.shape()) +
                                     " but " + path + " holds " + attn::shape_string(shape));
        parameter.value() = std::move(value);
    }
}

}  // namespace support
