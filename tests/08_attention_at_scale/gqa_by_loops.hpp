// Grouped-query attention written out with loops, from a layer's weights, for exercise 08.4's
// tests: independent of the exercise and of the autodiff. The scale of the scores and the
// key/value head each query head reads are arguments, so that a test can say which wrong
// choice a result matches.
#pragma once
#include "chapters/03_queries_keys_values/attention.hpp"
#include "chapters/08_attention_at_scale/grouped_query_layer.hpp"

#include "common/xtensor_compat.hpp"

#include <cmath>
#include <functional>
#include <vector>

namespace loops08 {

using A = xt::xarray<double>;

// x W^T + b: x (batch, n, in), W (out, in), b (out) -> (batch, n, out)
inline A project(const A& x, const attn::Linear<double>& linear) {
    const A& W = linear.weight.value();
    const A& b = linear.bias.value();
    A y = A::from_shape({x.shape(0), x.shape(1), W.shape(0)});
    for (std::size_t s = 0; s < x.shape(0); ++s)
        for (std::size_t i = 0; i < x.shape(1); ++i)
            for (std::size_t o = 0; o < W.shape(0); ++o) {
                double sum = b(o);
                for (std::size_t c = 0; c < W.shape(1); ++c) sum += x(s, i, c) * W(o, c);
                y(s, i, o) = sum;
            }
    return y;
}

struct Result {
    A output;    // (batch, n_q, d)
    A weights;   // (batch, H, n_q, n_k)
};

// The correct choices are scale = 1 / sqrt(d_h) and kv_head_of(h) = h / (H / G).
inline Result grouped_query(const attn::ch08::GroupedQueryAttention<double>& layer, const A& query, const A& key,
                            const A& value, const attn::ch03::Mask& blocked, double scale,
                            const std::function<std::size_t(std::size_t)>& kv_head_of) {
    const std::size_t batch = query.shape(0), n_q = query.shape(1), n_k = key.shape(1);
    const std::size_t heads = layer.heads(), d_h = layer.head_size();
    const A Q = project(query, layer.q_proj), K = project(key, layer.k_proj), V = project(value, layer.v_proj);
    A weights = xt::zeros<double>({batch, heads, n_q, n_k});
    A concatenated = xt::zeros<double>({batch, n_q, heads * d_h});
    for (std::size_t s = 0; s < batch; ++s)
        for (std::size_t h = 0; h < heads; ++h) {
            const std::size_t g = kv_head_of(h);
            for (std::size_t i = 0; i < n_q; ++i) {
                std::vector<double> scores(n_k);
                double largest = -INFINITY;
                for (std::size_t j = 0; j < n_k; ++j) {
                    if (blocked.size() != 0 && blocked(s, i, j)) continue;
                    double dot = 0;
                    for (std::size_t c = 0; c < d_h; ++c) dot += Q(s, i, h * d_h + c) * K(s, j, g * d_h + c);
                    scores[j] = dot * scale;
                    largest = std::max(largest, scores[j]);
                }
                double total = 0;
                for (std::size_t j = 0; j < n_k; ++j)
                    if (blocked.size() == 0 || !blocked(s, i, j)) total += std::exp(scores[j] - largest);
                for (std::size_t j = 0; j < n_k; ++j)   // a row with every key blocked stays 0
                    if (blocked.size() == 0 || !blocked(s, i, j)) weights(s, h, i, j) = std::exp(scores[j] - largest) / total;
                for (std::size_t c = 0; c < d_h; ++c)
                    for (std::size_t j = 0; j < n_k; ++j)
                        concatenated(s, i, h * d_h + c) += weights(s, h, i, j) * V(s, j, g * d_h + c);
            }
        }
    return {project(concatenated, layer.o_proj), weights};
}

}  // namespace loops08
