// Part 5's layers (see key_sharing.hpp).
#include "chapters/08_attention_at_scale/key_sharing.hpp"

#include "common/xtensor_compat.hpp"

#include <stdexcept>
#include <string>

namespace attn::ch08 {

namespace {
// Rows [first, first + count) of a weight (rows, d) or a bias (rows).
template <class T>
auto rows(Array<T>& x, std::size_t first, std::size_t count) {
    return xt::view(x, xt::range(first, first + count));
}
template <class T>
auto rows(const Array<T>& x, std::size_t first, std::size_t count) {
    return xt::view(x, xt::range(first, first + count));
}

// The rows of key/value head g' are the mean of the rows of the `merged` heads it replaces.
template <class T>
Array<T> mean_of_heads(const Array<T>& x, std::size_t head_size, std::size_t merged) {
    Shape shape(x.shape().begin(), x.shape().end());
    shape[0] /= merged;
    Array<T> pooled = xt::zeros<T>(shape);   // (G' d_h, d) or (G' d_h)
    for (std::size_t g = 0; g < shape[0] / head_size; ++g)
        for (std::size_t j = 0; j < merged; ++j)
            rows(pooled, g * head_size, head_size) += rows(x, (g * merged + j) * head_size, head_size);
    pooled /= static_cast<T>(merged);
    return pooled;
}
}  // namespace

template <class T>
void copy_multi_head(const ch05::MultiHeadAttention<T>& from, GroupedQueryAttention<T>& into) {
    const std::size_t d = from.d_model();
    if (into.d_model() != d || into.heads() != from.heads() || into.kv_heads() != from.heads())
        throw std::invalid_argument("copy_multi_head: a multi-head layer of d_model " + std::to_string(d) + " and " +
                                    std::to_string(from.heads()) + " heads needs kv_heads = heads = " +
                                    std::to_string(from.heads()) + ", got d_model " + std::to_string(into.d_model()) +
                                    ", heads " + std::to_string(into.heads()) + ", kv_heads " +
                                    std::to_string(into.kv_heads()));
    // Rows [0, d), [d, 2d), [2d, 3d) of the stacked projection are W_q, W_k, W_v (chapter 05).
    Linear<T>* parts[] = {&into.q_proj, &into.k_proj, &into.v_proj};
    for (std::size_t part = 0; part < 3; ++part) {
        parts[part]->weight.value() = rows(from.in_proj_weight.value(), part * d, d);
        parts[part]->bias.value() = rows(from.in_proj_bias.value(), part * d, d);
    }
    into.o_proj.weight.value() = from.out_proj.weight.value();
    into.o_proj.bias.value() = from.out_proj.bias.value();
}

template <class T>
void pool_key_value_heads(const GroupedQueryAttention<T>& from, GroupedQueryAttention<T>& into) {
    if (into.d_model() != from.d_model() || into.heads() != from.heads() || from.kv_heads() % into.kv_heads() != 0)
        throw std::invalid_argument("pool_key_value_heads: from d_model " + std::to_string(from.d_model()) + ", heads " +
                                    std::to_string(from.heads()) + ", kv_heads " + std::to_string(from.kv_heads()) +
                                    " into d_model " + std::to_string(into.d_model()) + ", heads " +
                                    std::to_string(into.heads()) + ", kv_heads " + std::to_string(into.kv_heads()) +
                                    ": the same d_model and heads, and kv_heads dividing the first's");
    const std::size_t merged = from.kv_heads() / into.kv_heads(), d_h = from.head_size();
    for (auto [source, target] : {std::pair{&from.k_proj, &into.k_proj}, std::pair{&from.v_proj, &into.v_proj}}) {
        target->weight.value() = mean_of_heads(source->weight.value(), d_h, merged);
        target->bias.value() = mean_of_heads(source->bias.value(), d_h, merged);
    }
    into.q_proj.weight.value() = from.q_proj.weight.value();
    into.q_proj.bias.value() = from.q_proj.bias.value();
    into.o_proj.weight.value() = from.o_proj.weight.value();
    into.o_proj.bias.value() = from.o_proj.bias.value();
}

template <class T>
void same_query_for_every_head(GroupedQueryAttention<T>& layer) {
    const std::size_t d_h = layer.head_size();
    Array<T>& W = layer.q_proj.weight.value();
    Array<T>& b = layer.q_proj.bias.value();
    for (std::size_t h = 1; h < layer.heads(); ++h) {
        rows(W, h * d_h, d_h) = rows(W, 0, d_h);
        rows(b, h * d_h, d_h) = rows(b, 0, d_h);
    }
}

std::vector<std::vector<std::size_t>> heads_with_equal_maps(const xt::xarray<double>& weights, double tolerance) {
    std::vector<std::vector<std::size_t>> classes;
    for (std::size_t h = 0; h < weights.shape(0); ++h) {
        bool placed = false;
        for (std::vector<std::size_t>& same : classes) {
            const xt::xarray<double> difference = xt::abs(xt::view(weights, h) - xt::view(weights, same.front()));
            const double largest = xt::amax(difference)();
            if (largest <= tolerance) {
                same.push_back(h);
                placed = true;
                break;
            }
        }
        if (!placed) classes.push_back({h});
    }
    return classes;
}

template void copy_multi_head(const ch05::MultiHeadAttention<float>&, GroupedQueryAttention<float>&);
template void copy_multi_head(const ch05::MultiHeadAttention<double>&, GroupedQueryAttention<double>&);
template void pool_key_value_heads(const GroupedQueryAttention<float>&, GroupedQueryAttention<float>&);
template void pool_key_value_heads(const GroupedQueryAttention<double>&, GroupedQueryAttention<double>&);
template void same_query_for_every_head(GroupedQueryAttention<float>&);
template void same_query_for_every_head(GroupedQueryAttention<double>&);

}  // namespace attn::ch08
