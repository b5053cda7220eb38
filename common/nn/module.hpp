// Modules: a model is a tree of modules, each owning named parameters, so that every weight
// has a path name like PyTorch's state_dict ("decoder.dense.weight") and the whole tree can
// be listed, counted, saved and switched between training and evaluation.
// Introduced in chapter 01.
#pragma once
#include "common/autodiff/var.hpp"

#include <string>
#include <utility>
#include <vector>

namespace attn {

template <class T>
class Module {
public:
    Module() = default;
    virtual ~Module() = default;
    // Children are registered by address, so a module stays where it was built.
    Module(const Module&) = delete;
    Module& operator=(const Module&) = delete;

    // Every parameter of this module and its children, depth first, with its path name.
    std::vector<std::pair<std::string, Var<T>>> named_parameters() const;
    std::vector<Var<T>> parameters() const;
    std::size_t parameter_count() const;   // number of scalar weights
    void zero_grad() const;                // forget every parameter's gradient

    void train(bool on = true);            // this module and every child
    void eval() { train(false); }
    bool training() const { return training_; }

protected:
    // Adds a parameter holding `value` and returns its handle (keep it as a member).
    Var<T> register_parameter(const std::string& name, Array<T> value);
    // Adds a child module (a member of the derived class); its parameters get "name." in front.
    void register_module(const std::string& name, Module<T>& child);

private:
    std::vector<std::pair<std::string, Var<T>>> parameters_;
    std::vector<std::pair<std::string, Module<T>*>> children_;
    bool training_ = true;
};

}  // namespace attn
