// The lesson's worked example, shared by the executable and the tests: two words whose raw
// scores are 112 and 96 in d_k = 64, so that scaling by 1/sqrt(64) gives 14 and 12.
#pragma once
#include "chapters/03_queries_keys_values/attention_layer.hpp"

namespace attn::ch04 {

// The words are one-hot in d_model = 2: x_0 = (1, 0), x_1 = (0, 1), so X W^T picks a column
// of each weight: q_j = column j of W_q, k_j = column j of W_k, v_j = column j of W_v.
//   q_0 = (1, ..., 1), q_1 = 0                 (64 entries each)
//   k_0 = (1.75, ..., 1.75), k_1 = (1.5, ..., 1.5)
//   W_v = I, so the output rows are the weights themselves
// Word 0 scores q_0.k_0 = 64 * 1.75 = 112 and q_0.k_1 = 64 * 1.5 = 96; word 1 scores 0 and 0.
template <class T>
struct WorkedExample {
    static constexpr std::size_t d_model = 2, d_k = 64;
    Rng rng{0};   // only to build the layer; every weight is then set by hand
    ch03::AttentionLayer<T> layer{{d_model, d_model, d_model, d_k, d_model}, rng};
    Var<T> X;     // (1, 2, d_model)

    WorkedExample() {
        Array<T> W_q = xt::zeros<T>({d_k, d_model}), W_k = xt::zeros<T>({d_k, d_model});
        xt::view(W_q, xt::all(), 0) = T(1);
        xt::view(W_k, xt::all(), 0) = T(1.75);
        xt::view(W_k, xt::all(), 1) = T(1.5);
        layer.W_q.weight.value() = W_q;
        layer.W_k.weight.value() = W_k;
        layer.W_v.weight.value() = xt::eye<T>(d_model);
        Array<T> words = xt::eye<T>(d_model);
        words.reshape({1, 2, d_model});
        X = constant<T>(words);
    }
};

}  // namespace attn::ch04
