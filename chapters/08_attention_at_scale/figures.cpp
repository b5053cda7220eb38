// Chapter 08's figures (figures.hpp).
#include "chapters/08_attention_at_scale/figures.hpp"

#include <algorithm>
#include <string>

namespace attn::ch08 {

plot::Heatmap tiling_picture(std::size_t n, std::size_t query_block, std::size_t key_block) {
    enum Fate { skipped = 0, blocked = 1, used = 2 };
    plot::Heatmap map;
    map.title = "Causal attention, n = " + std::to_string(n) + ", in tiles of " + std::to_string(query_block) +
                " queries x " + std::to_string(key_block) + " keys";
    map.xlabel = "key j";
    map.ylabel = "query i";
    map.categories = {"tile skipped: never computed", "computed, then blocked (j > i)", "computed and used"};
    map.values = Matrix<double>::from_shape({n, n});   // (n, n)
    for (std::size_t q0 = 0; q0 < n; q0 += query_block) {
        const std::size_t q1 = std::min(q0 + query_block, n);
        // A query block needs the key blocks up to its last query; the ones after are skipped whole.
        for (std::size_t k0 = 0; k0 < n; k0 += key_block) {
            const bool computed = k0 < q1;
            for (std::size_t i = q0; i < q1; ++i)
                for (std::size_t j = k0; j < std::min(k0 + key_block, n); ++j)
                    map.values(i, j) = !computed ? skipped : j > i ? blocked : used;
        }
    }
    map.tile_rows = query_block;     // the tiles' borders, so that they can be counted
    map.tile_columns = key_block;
    for (std::size_t p = 0; p < n; ++p) {   // a label every block, at the tiles' first rows and columns
        map.x_tick_labels.push_back(p % key_block == 0 ? std::to_string(p) : "");
        map.y_tick_labels.push_back(p % query_block == 0 ? std::to_string(p) : "");
    }
    return map;
}

plot::HeatmapGrid key_sharing_grid(const std::vector<Tensor3<double>>& weights, const std::vector<std::size_t>& kv_heads) {
    plot::HeatmapGrid grid;
    grid.title = "Head weights with every query head given the same query: heads that read the same keys draw the same map";
    grid.colorbar_label = "attention weight";
    grid.z_min = 0.0;
    const std::size_t heads = weights.front().shape(0), n = weights.front().shape(1);
    grid.columns = heads;
    std::vector<std::string> positions;
    for (std::size_t p = 0; p < n; ++p) positions.push_back(std::to_string(p));
    for (std::size_t k = 0; k < weights.size(); ++k)
        for (std::size_t h = 0; h < heads; ++h) {
            plot::Heatmap panel;
            panel.title = "G = " + std::to_string(kv_heads[k]) + ": head " + std::to_string(h) + " reads K/V " +
                          std::to_string(h / (heads / kv_heads[k]));
            panel.xlabel = "key position j";
            panel.ylabel = "query position i";
            panel.values = xt::view(weights[k], h);   // (n, n)
            panel.x_tick_labels = positions;
            panel.y_tick_labels = positions;
            grid.panels.push_back(std::move(panel));
        }
    return grid;
}

}  // namespace attn::ch08
