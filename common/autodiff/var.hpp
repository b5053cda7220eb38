// Reverse-mode automatic differentiation: a Var holds a tensor value and, after backward(),
// the gradient of a scalar loss with respect to it. Every op records how to push a gradient
// back to its inputs; backward() replays those records from the loss to the leaves.
// Introduced in chapter 01 (chapter 00 does the same by hand). See common/README.md.
#pragma once
#include "common/tensor.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace attn {

template <class T> using Array = xt::xarray<T>;   // ranks change along the tape, so dynamic rank
using Shape = std::vector<std::size_t>;

template <class T> struct Node;

// "No gradient here": an array with no entries. (A default xt::xarray is a 0-d scalar with one
// entry, so it cannot play this role.)
template <class T> Array<T> no_gradient() { return Array<T>::from_shape({0}); }

template <class T>
class Var {
public:
    Var() = default;   // an empty handle; most functions refuse it
    // A leaf holding `value`. Parameters are leaves with requires_grad = true.
    explicit Var(Array<T> value, bool requires_grad = false);
    explicit Var(std::shared_ptr<Node<T>> node) : node_(std::move(node)) {}

    const Array<T>& value() const;
    // For writing in place (optimizers, loading weights). It counts as a write: it bumps the
    // Var's version, so a backward that still needs the old value refuses to run. To only
    // read, call value() through a const Var (or const Var&).
    Array<T>& value();
    const Array<T>& grad() const;           // empty until backward() reaches this Var
    bool has_grad() const;
    void zero_grad() const;                 // forget the gradient (before the next backward)
    bool requires_grad() const;

    std::size_t dim() const;                // rank
    std::size_t shape(std::size_t axis) const;
    Shape shape() const;
    std::size_t size() const;
    T item() const;                         // the value of a one-element Var
    bool defined() const { return node_ != nullptr; }
    const std::shared_ptr<Node<T>>& node() const { return node_; }

private:
    std::shared_ptr<Node<T>> node_;
};

// Which values an op's backward reads, besides its output's gradient. backward() checks that
// none of them was written in place between the forward and the backward pass: the gradient
// would silently be computed from the new numbers. (tanh reads its output, matmul its inputs,
// add neither.) It must be true: an output its op declares unread (nothing or inputs) may also
// be overwritten by the element-wise op that consumes it, when it is a temporary
// (ops_elementwise.cpp, handed_over), so a backward that reads it anyway gets wrong numbers.
enum class Reads { nothing, inputs, output, inputs_and_output };

template <class T>
struct Node {
    Array<T> value;
    Array<T> grad = no_gradient<T>();       // allocated when the first gradient arrives
    bool requires_grad = false;
    std::string op = "leaf";                // which op made it, for messages
    std::vector<std::shared_ptr<Node<T>>> inputs;
    // Reads this node's grad and adds each input's share to that input's grad.
    std::function<void(Node<T>&)> backward;

    // Soundness checks of backward() (PyTorch makes the same two).
    // In-place writes to `value` so far: Var::value() counts them (code that writes through
    // node() directly must count too). An op's output starts at 0.
    std::uint64_t version = 0;
    // Set when `value` is a view of another node's entries (reshape makes views): that node,
    // the one that owns the entries. Writes through either count on its version. (An
    // element-wise op's result can also share the entries of the temporary it overwrote; that
    // node's value is never read again, so no version is shared.)
    std::shared_ptr<Node<T>> view_of;
    std::uint64_t& version_counter() { return view_of ? view_of->version : version; }
    Reads reads = Reads::nothing;           // what `backward` reads
    std::vector<std::uint64_t> input_versions;   // the inputs' versions when the op read them
    bool freed = false;                     // an earlier backward ran this op and dropped its record
};

// An array over the same entries as `base`, in another shape with as many entries: no copy,
// and writing either writes both (common/array_storage.hpp). reshape() makes its views so.
template <class T> Array<T> share_storage(const Array<T>& base, const Shape& shape);

// A leaf that gradients flow into (a weight) and one they do not (data).
template <class T> Var<T> parameter(Array<T> value);
template <class T> Var<T> constant(Array<T> value);

// What backward() does with the recorded graph once it has walked it: free it (the default,
// which releases the saved values as it goes), or keep it to run backward through it again.
enum class Graph { free, retain };

// Computes d root / d v for every Var v that root depends on and that requires a gradient,
// adding it to v.grad(). root must have exactly one element (a loss), unless `seed` (the
// gradient of something downstream with respect to root) is given.
// Throws std::logic_error if part of the graph was freed by an earlier backward, or if a value
// an op's backward reads was written in place since that op ran.
template <class T> void backward(const Var<T>& root, Graph graph = Graph::free);
template <class T> void backward(const Var<T>& root, const Array<T>& seed, Graph graph = Graph::free);

// ---- Writing a differentiable op --------------------------------------------------------
// The API for an op with a hand-written backward: give the forward value, the inputs and a
// function that maps the output's gradient to one gradient per input (in order;
// no_gradient<T>() means "no gradient for this input"). Chapter 00's softmax is registered this way.
//
// The backward function does not need to keep copies of what it reads: it receives the op's
// saved values, the output it computed and the inputs it read, as PyTorch's `ctx` does. They
// are the Vars' own values, so nothing is copied, and capturing the output Var in the
// function instead would make the node own itself (a reference cycle that never frees).
// Since the function may read any of them, backward() checks them all for in-place writes.
template <class T>
class SavedValues {
public:
    explicit SavedValues(const Node<T>& node) : node_(node) {}
    const Array<T>& output() const { return node_.value; }
    const Array<T>& input(std::size_t i) const { return node_.inputs.at(i)->value; }
    std::size_t input_count() const { return node_.inputs.size(); }

private:
    const Node<T>& node_;
};

template <class T>
using BackwardFunction =
    std::function<std::vector<Array<T>>(const SavedValues<T>& saved, const Array<T>& grad_output)>;

template <class T>
Var<T> custom_op(const std::string& name, Array<T> value, const std::vector<Var<T>>& inputs,
                 BackwardFunction<T> backward);

// The lower-level form the toolkit's ops use: `backward` adds into the inputs' grads itself
// (with accumulate_grad), which saves a temporary per input. `reads` says which values it
// reads (self.value, self.inputs[i]->value); their shapes do not count.
template <class T>
Var<T> record_op(const std::string& name, Array<T> value, const std::vector<Var<T>>& inputs, Reads reads,
                 std::function<void(Node<T>&)> backward);
// Without `reads`, the inputs and the output all count as read: the safe choice.
template <class T>
Var<T> record_op(const std::string& name, Array<T> value, const std::vector<Var<T>>& inputs,
                 std::function<void(Node<T>&)> backward);

// node.grad += g, allocating on first use (g is moved in when possible).
template <class T> void accumulate_grad(Node<T>& node, Array<T>&& g);
template <class T> void accumulate_grad(Node<T>& node, const Array<T>& g);

// ---- No-grad mode -----------------------------------------------------------------------
// While a NoGradGuard lives, ops record nothing: for evaluation and greedy decoding, where
// no backward pass follows. Saves the memory and time of the tape.
class NoGradGuard {
public:
    NoGradGuard();
    ~NoGradGuard();
    NoGradGuard(const NoGradGuard&) = delete;
    NoGradGuard& operator=(const NoGradGuard&) = delete;

private:
    bool previous_;
};
bool grad_enabled();

// "(64, 32, 128)", for messages.
std::string shape_string(const Shape& shape);
template <class T> std::string shape_string(const Array<T>& a);

}  // namespace attn
