// Loading a PyTorch state_dict saved one tensor per file (numpy.save of each entry) into a
// module whose parameters carry PyTorch's names.
#pragma once
#include "common/nn/module.hpp"

#include <string>

namespace support {

// Sets every named parameter `name` of `module` from data_path(prefix + name + ".npy"), e.g.
// prefix "07_transformer/transformer/" and name "encoder.layers.0.linear1.weight". Throws
// std::runtime_error naming the parameter when its file is missing or its shape differs.
void load_parameters(const attn::Module<double>& module, const std::string& prefix);

}  // namespace support
