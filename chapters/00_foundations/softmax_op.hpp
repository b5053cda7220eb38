// The differentiable softmax every later chapter uses: chapter 00's softmax (exercise 00.1)
// for the forward pass and softmax_backward (exercise 00.2) for the backward pass,
// registered with the toolkit's autodiff as a custom op. With `--mine`, later chapters
// therefore run on the learner's own softmax.
#pragma once
#include "common/autodiff/var.hpp"

namespace attn::ch00 {

// softmax over the last axis of a tensor of any rank: scores (..., n) -> weights (..., n).
template <class T>
Var<T> softmax(const Var<T>& scores);

}  // namespace attn::ch00
