// Chapter 05's heatmaps (see figures.hpp).
#include "chapters/05_multi_head_attention/figures.hpp"

#include <xtensor/xbuilder.hpp>
#include <xtensor/xview.hpp>

#include <limits>

namespace attn::ch05 {

template <class T>
plot::Heatmap heads_heatmap(const Array<T>& head_weights, const std::vector<std::string>& query_labels,
                            const std::vector<std::string>& key_labels, const std::string& title) {
    const std::size_t heads = head_weights.shape(1), n_q = head_weights.shape(2), n_k = head_weights.shape(3);
    plot::Heatmap map;
    map.title = title;
    map.xlabel = "key j (looked at), head by head";
    map.ylabel = "query i (looking)";
    // One empty (NaN, left blank) column between neighbouring heads keeps the blocks apart.
    const std::size_t stride = n_k + 1;
    map.values = xt::full_like(Matrix<double>::from_shape({n_q, heads * stride - 1}),
                               std::numeric_limits<double>::quiet_NaN());
    for (std::size_t h = 0; h < heads; ++h) {
        xt::view(map.values, xt::all(), xt::range(h * stride, h * stride + n_k)) =
            xt::cast<double>(xt::view(head_weights, 0, h, xt::all(), xt::all()));
        if (h > 0) map.x_tick_labels.push_back("");
        for (std::size_t j = 0; j < n_k; ++j)
            map.x_tick_labels.push_back(j == 0 ? "h" + std::to_string(h + 1) + ":" + key_labels[j] : key_labels[j]);
    }
    map.y_tick_labels = query_labels;
    map.colorbar_label = "attention weight";
    map.z_min = 0.0;
    return map;
}

template plot::Heatmap heads_heatmap(const Array<float>&, const std::vector<std::string>&,
                                     const std::vector<std::string>&, const std::string&);
template plot::Heatmap heads_heatmap(const Array<double>&, const std::vector<std::string>&,
                                     const std::vector<std::string>&, const std::string&);

}  // namespace attn::ch05
