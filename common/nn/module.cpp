// The module tree (see module.hpp).
#include "common/nn/module.hpp"

#include <stdexcept>

namespace attn {

template <class T>
Var<T> Module<T>::register_parameter(const std::string& name, Array<T> value) {
    for (const auto& [existing, unused] : parameters_)
        if (existing == name) throw std::invalid_argument("register_parameter: '" + name + "' is registered twice");
    Var<T> handle = parameter<T>(std::move(value));
    parameters_.emplace_back(name, handle);
    return handle;
}

template <class T>
void Module<T>::register_module(const std::string& name, Module<T>& child) {
    for (const auto& [existing, unused] : children_)
        if (existing == name) throw std::invalid_argument("register_module: '" + name + "' is registered twice");
    children_.emplace_back(name, &child);
}

template <class T>
std::vector<std::pair<std::string, Var<T>>> Module<T>::named_parameters() const {
    std::vector<std::pair<std::string, Var<T>>> all = parameters_;
    for (const auto& [prefix, child] : children_)
        for (const auto& [name, var] : child->named_parameters()) all.emplace_back(prefix + "." + name, var);
    return all;
}

template <class T>
std::vector<Var<T>> Module<T>::parameters() const {
    std::vector<Var<T>> all;
    for (const auto& named : named_parameters()) all.push_back(named.second);
    return all;
}

template <class T>
std::size_t Module<T>::parameter_count() const {
    std::size_t total = 0;
    for (const auto& named : named_parameters()) total += named.second.size();
    return total;
}

template <class T>
void Module<T>::zero_grad() const {
    for (const auto& named : named_parameters()) named.second.zero_grad();
}

template <class T>
void Module<T>::train(bool on) {
    training_ = on;
    for (const auto& named_child : children_) named_child.second->train(on);
}

// ---- instantiations: do not edit ----
template class Module<float>;
template class Module<double>;

}  // namespace attn
