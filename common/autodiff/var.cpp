// The tape: leaves, recorded ops, and the backward pass (see var.hpp).
#include "common/autodiff/var.hpp"
#include "common/simd_clones.hpp"

#include <stdexcept>
#include <unordered_set>

namespace attn {

namespace {
thread_local bool grad_mode = true;

template <class T>
Node<T>& checked(const std::shared_ptr<Node<T>>& node, const char* what) {
    if (!node) throw std::invalid_argument(std::string(what) + ": the Var is empty (default-constructed)");
    return *node;
}
}  // namespace

bool grad_enabled() { return grad_mode; }
NoGradGuard::NoGradGuard() : previous_(grad_mode) { grad_mode = false; }
NoGradGuard::~NoGradGuard() { grad_mode = previous_; }

std::string shape_string(const Shape& shape) {
    std::string text = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + (shape.size() == 1 ? ",)" : ")");
}

template <class T>
std::string shape_string(const Array<T>& a) {
    return shape_string(Shape(a.shape().begin(), a.shape().end()));
}

template <class T>
Var<T>::Var(Array<T> value, bool requires_grad) : node_(std::make_shared<Node<T>>()) {
    node_->value = std::move(value);
    node_->requires_grad = requires_grad;
}

template <class T> const Array<T>& Var<T>::value() const { return checked(node_, "Var::value").value; }
template <class T>
Array<T>& Var<T>::value() {
    Node<T>& node = checked(node_, "Var::value");
    ++node.version_counter();   // the caller may write: an op that read the old value can no longer trust it
    return node.value;
}
template <class T> const Array<T>& Var<T>::grad() const { return checked(node_, "Var::grad").grad; }
template <class T> bool Var<T>::has_grad() const { return node_ && node_->grad.size() > 0; }
template <class T> void Var<T>::zero_grad() const { checked(node_, "Var::zero_grad").grad = no_gradient<T>(); }
template <class T> bool Var<T>::requires_grad() const { return node_ && node_->requires_grad; }
template <class T> std::size_t Var<T>::dim() const { return value().dimension(); }
template <class T> std::size_t Var<T>::size() const { return value().size(); }

template <class T>
std::size_t Var<T>::shape(std::size_t axis) const {
    if (axis >= dim())
        throw std::out_of_range("Var::shape: axis " + std::to_string(axis) + " of a tensor of shape " +
                                shape_string(value()));
    return value().shape(axis);
}

template <class T> Shape Var<T>::shape() const { return Shape(value().shape().begin(), value().shape().end()); }

template <class T>
T Var<T>::item() const {
    if (size() != 1) throw std::invalid_argument("Var::item: expected one element, got shape " + shape_string(value()));
    return value().flat(0);
}

template <class T>
Array<T> share_storage(const Array<T>& base, const Shape& shape) {
    std::size_t entries = 1;
    for (std::size_t n : shape) entries *= n;
    if (entries != base.size())
        throw std::invalid_argument("share_storage: " + shape_string(base) + " has " + std::to_string(base.size()) +
                                    " entries, shape " + shape_string(shape) + " needs " + std::to_string(entries));
    using Storage = typename Array<T>::storage_type;
    // Its allocator hands out base's block instead of a new one (SharedAllocator::sharing).
    Storage entries_of_base(base.size(), SharedAllocator<T>::sharing(const_cast<T*>(base.data())));
    typename Array<T>::inner_shape_type view_shape(shape.begin(), shape.end());
    typename Array<T>::inner_strides_type strides(shape.size());
    xt::compute_strides(view_shape, xt::layout_type::row_major, strides);
    return Array<T>(std::move(entries_of_base), std::move(view_shape), std::move(strides));
}

template <class T> Var<T> parameter(Array<T> value) { return Var<T>(std::move(value), true); }
template <class T> Var<T> constant(Array<T> value) { return Var<T>(std::move(value), false); }

namespace {

// node.grad += g for a node that already has a gradient.
// out += in, compiled for several CPUs (common/simd_clones.hpp; nothing in it may throw).
template <class T>
COURSE_SIMD_CLONES void add_into(T* out, const T* in, std::size_t n) noexcept {
    for (std::size_t k = 0; k < n; ++k) out[k] += in[k];
}

template <class T>
void add_to_grad(Node<T>& node, const Array<T>& g) {
    if (node.grad.size() != g.size())
        throw std::logic_error("accumulate_grad: gradient of shape " + shape_string(g) + " for a value of shape " +
                               shape_string(node.value) + " (op " + node.op + ")");
    add_into(node.grad.data(), g.data(), g.size());
}

}  // namespace

template <class T>
void accumulate_grad(Node<T>& node, Array<T>&& g) {
    if (node.grad.size() == 0) node.grad = std::move(g);
    else add_to_grad(node, g);
}

template <class T>
void accumulate_grad(Node<T>& node, const Array<T>& g) {
    if (node.grad.size() == 0) node.grad = g;   // the only case that needs a copy
    else add_to_grad(node, g);
}

template <class T>
Var<T> record_op(const std::string& name, Array<T> value, const std::vector<Var<T>>& inputs, Reads reads,
                 std::function<void(Node<T>&)> backward) {
    auto node = std::make_shared<Node<T>>();
    node->value = std::move(value);
    node->op = name;
    bool any = false;
    for (const Var<T>& input : inputs) any = any || input.requires_grad();
    // Only record what a backward pass will need: nothing in no-grad mode or for pure data.
    if (any && grad_mode) {
        node->requires_grad = true;
        for (const Var<T>& input : inputs) node->inputs.push_back(input.node());
        node->backward = std::move(backward);
        node->reads = reads;
        if (reads == Reads::inputs || reads == Reads::inputs_and_output)
            for (const Var<T>& input : inputs) node->input_versions.push_back(input.node()->version_counter());
    }
    return Var<T>(node);
}

template <class T>
Var<T> record_op(const std::string& name, Array<T> value, const std::vector<Var<T>>& inputs,
                 std::function<void(Node<T>&)> backward) {
    return record_op(name, std::move(value), inputs, Reads::inputs_and_output, std::move(backward));
}

template <class T>
Var<T> custom_op(const std::string& name, Array<T> value, const std::vector<Var<T>>& inputs,
                 BackwardFunction<T> backward) {
    return record_op<T>(name, std::move(value), inputs, Reads::inputs_and_output, [backward, name](Node<T>& self) {
        std::vector<Array<T>> grads = backward(SavedValues<T>(self), self.grad);
        if (grads.size() != self.inputs.size())
            throw std::logic_error("custom op " + name + ": backward returned " + std::to_string(grads.size()) +
                                   " gradients for " + std::to_string(self.inputs.size()) + " inputs");
        for (std::size_t i = 0; i < grads.size(); ++i) {
            Node<T>& input = *self.inputs[i];
            if (grads[i].size() == 0 || !input.requires_grad) continue;
            if (!std::equal(grads[i].shape().begin(), grads[i].shape().end(), input.value.shape().begin(),
                            input.value.shape().end()))
                throw std::logic_error("custom op " + name + ": gradient " + std::to_string(i) + " has shape " +
                                       shape_string(grads[i]) + " but its input has shape " +
                                       shape_string(input.value));
            accumulate_grad(input, std::move(grads[i]));
        }
    });
}

namespace {

// Throws if a value that `node`'s backward reads was written in place after the op read it.
template <class T>
void check_unmodified(const Node<T>& node) {
    const auto refuse = [&node](const std::string& what, const Node<T>& written) {
        throw std::logic_error("backward: " + what + " of " + node.op + " (shape " + shape_string(written.value) +
                               ") was written in place after " + node.op + " ran, so the gradients computed from it " +
                               "would be wrong; write values only after backward, or run the forward pass " +
                               "again (a non-const Var's value() counts as a write)");
    };
    if ((node.reads == Reads::output || node.reads == Reads::inputs_and_output) && node.version != 0)
        refuse("the output", node);
    for (std::size_t i = 0; i < node.input_versions.size(); ++i)
        if (node.inputs[i]->version_counter() != node.input_versions[i]) refuse("input " + std::to_string(i), *node.inputs[i]);
}

template <class T>
[[noreturn]] void refuse_freed(const Node<T>& node) {
    throw std::logic_error("backward: the graph through " + node.op +
                           " was freed by an earlier backward; run the forward pass again, or pass "
                           "attn::Graph::retain to the earlier backward to go through the graph twice");
}

// The recorded ops `top` depends on, each after every op that uses its output (reverse DFS
// post-order, reversed by the caller). The list owns them: freeing the graph while walking it
// must not free a node still to come.
template <class T>
std::vector<std::shared_ptr<Node<T>>> ops_in_order(const std::shared_ptr<Node<T>>& top) {
    std::vector<std::shared_ptr<Node<T>>> order;
    std::unordered_set<Node<T>*> seen{top.get()};
    std::vector<std::pair<std::shared_ptr<Node<T>>, std::size_t>> stack{{top, 0}};
    while (!stack.empty()) {
        std::shared_ptr<Node<T>> node = stack.back().first;
        const std::size_t next_input = stack.back().second++;
        if (next_input < node->inputs.size()) {
            const std::shared_ptr<Node<T>>& input = node->inputs[next_input];
            if (input->freed) refuse_freed(*input);
            if (input->requires_grad && !input->inputs.empty() && seen.insert(input.get()).second)
                stack.push_back({input, 0});
        } else {
            order.push_back(node);
            stack.pop_back();
        }
    }
    return order;
}

}  // namespace

template <class T>
void backward(const Var<T>& root, const Array<T>& seed, Graph graph) {
    Node<T>& top = checked(root.node(), "backward");
    if (top.freed) refuse_freed(top);
    if (!top.requires_grad) throw std::invalid_argument("backward: nothing to differentiate (no input requires a gradient)");
    const std::vector<std::shared_ptr<Node<T>>> order = ops_in_order(root.node());
    for (const auto& node : order) check_unmodified(*node);   // before any gradient is written
    const bool is_op = top.backward != nullptr;
    if (is_op) top.grad = no_gradient<T>();   // a retained graph may still hold the last seed
    accumulate_grad(top, Array<T>(seed));
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        Node<T>& node = **it;   // every node that uses this one has already passed its gradient on
        if (node.backward && node.grad.size() > 0) node.backward(node);
        if (&node != &top) node.grad = no_gradient<T>();   // an intermediate gradient is used once
        if (graph == Graph::free && node.backward) {
            // Free the graph as we go: the saved values and the links to the inputs go.
            node.backward = nullptr;
            node.inputs.clear();
            node.input_versions.clear();
            node.freed = true;
        }
    }
    if (is_op) top.grad = seed;   // an op may have handed its gradient on (moved it) instead of copying it
}

template <class T>
void backward(const Var<T>& root, Graph graph) {
    if (root.size() != 1)
        throw std::invalid_argument("backward: the root must be a single number (a loss), got shape " +
                                    shape_string(root.value()) + "; pass a seed gradient otherwise");
    backward(root, Array<T>(xt::ones<T>(root.value().shape())), graph);
}

// ---- instantiations: do not edit ----
#define ATTN_INSTANTIATE(T)                                                                          \
    template class Var<T>;                                                                           \
    template Var<T> parameter(Array<T>);                                                             \
    template Var<T> constant(Array<T>);                                                              \
    template void backward(const Var<T>&, Graph);                                                    \
    template void backward(const Var<T>&, const Array<T>&, Graph);                                   \
    template Var<T> custom_op(const std::string&, Array<T>, const std::vector<Var<T>>&, BackwardFunction<T>); \
    template Var<T> record_op(const std::string&, Array<T>, const std::vector<Var<T>>&, Reads,      \
                              std::function<void(Node<T>&)>);                                        \
    template Var<T> record_op(const std::string&, Array<T>, const std::vector<Var<T>>&,             \
                              std::function<void(Node<T>&)>);                                        \
    template void accumulate_grad(Node<T>&, Array<T>&&);                                             \
    template void accumulate_grad(Node<T>&, const Array<T>&);                                        \
    template std::string shape_string(const Array<T>&);                                             \
    template Array<T> share_storage(const Array<T>&, const Shape&);
ATTN_INSTANTIATE(float)
ATTN_INSTANTIATE(double)

}  // namespace attn
