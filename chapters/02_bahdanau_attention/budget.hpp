// Chapter 02's training budget: the steps its model trains for by default. Its attention
// decoder costs about twice as much per step as chapter 01's, so it has its own budget;
// chapter 03's decoders train on this same budget to be compared with it.
#pragma once
#include "chapters/01_encoder_decoder/app.hpp"

namespace attn::ch02 {

constexpr ch01::DefaultSteps chapter02_steps{1200, 1000, 200, 150};

}  // namespace attn::ch02
