// Reading exercise 08.4's golden cases (tests/data/08_attention_at_scale/make_gqa_cases.py), and
// the layers they were computed with.
#pragma once
#include "chapters/08_attention_at_scale/grouped_query_layer.hpp"
#include "tests/support/gradients.hpp"

#include "common/xtensor_compat.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace golden08 {

inline xt::xarray<double> load(const std::string& name) {
    return xt::load_npy<double>(support::data_path("08_attention_at_scale/" + name + ".npy"));
}
// The masks are stored as 0/1 integers; true = blocked.
inline attn::ch03::Mask load_mask(const std::string& name) {
    const xt::xarray<std::int64_t> ones =
        xt::load_npy<std::int64_t>(support::data_path("08_attention_at_scale/" + name + ".npy"));
    return xt::not_equal(ones, std::int64_t{0});
}

// The script's layer: d = 12, H = 4 query heads, G = kv_heads (2 or 1), its weights.
struct GoldenLayer {
    attn::Rng rng{1};
    attn::ch08::GroupedQueryAttention<double> layer;
    explicit GoldenLayer(std::size_t kv_heads) : layer(12, 4, kv_heads, rng) {
        const std::string prefix = "gqa_g" + std::to_string(kv_heads) + "_";
        for (auto [name, linear] : {std::pair{"q_proj", &layer.q_proj}, std::pair{"k_proj", &layer.k_proj},
                                    std::pair{"v_proj", &layer.v_proj}, std::pair{"o_proj", &layer.o_proj}}) {
            linear->weight.value() = load(prefix + name + "_weight");
            linear->bias.value() = load(prefix + name + "_bias");
        }
    }
};

}  // namespace golden08
