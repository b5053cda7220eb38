// Reading chapter 05's golden cases (tests/data/05_multi_head_attention/make_cases.py), and
// the layer they were computed with. Literal tensors come from chapter 03's golden03::t2, t3.
#pragma once
#include "chapters/05_multi_head_attention/multi_head_layer.hpp"
#include "tests/03_queries_keys_values/golden.hpp"

namespace golden05 {

inline xt::xarray<double> load(const std::string& name) {
    return xt::load_npy<double>(support::data_path("05_multi_head_attention/" + name + ".npy"));
}
// The masks are stored as 0/1 integers; true = blocked.
inline attn::ch03::Mask load_mask(const std::string& name) {
    const xt::xarray<std::int64_t> ones =
        xt::load_npy<std::int64_t>(support::data_path("05_multi_head_attention/" + name + ".npy"));
    return xt::not_equal(ones, std::int64_t{0});
}

// torch.nn.MultiheadAttention(8, 2, batch_first=True) with the script's weights.
struct GoldenLayer {
    attn::Rng rng{1};
    attn::ch05::MultiHeadAttention<double> layer{8, 2, rng};
    GoldenLayer() {
        layer.in_proj_weight.value() = load("mha_in_proj_weight");
        layer.in_proj_bias.value() = load("mha_in_proj_bias");
        layer.out_proj.weight.value() = load("mha_out_proj_weight");
        layer.out_proj.bias.value() = load("mha_out_proj_bias");
    }
};

}  // namespace golden05
