// Chapter 08's figures: what is drawn, separate from the story main.cpp tells.
#pragma once
#include "common/plot.hpp"

#include <cstddef>
#include <vector>

namespace attn::ch08 {

// The tiling picture: the n x n score matrix of causal attention cut into blocks of
// `query_block` queries by `key_block` keys, each score coloured by what the tiled pass does
// with it: never computed (its tile lies above the diagonal and is skipped), computed but
// blocked (j > i inside a tile that straddles the diagonal), computed and used.
plot::Heatmap tiling_picture(std::size_t n, std::size_t query_block, std::size_t key_block);

// Part 5: the head weights (H, n, n) of one sequence through layers with kv_heads[k]
// key/value heads, one row of panels per layer and one panel per query head, each titled with
// the key/value head it reads (h / (H / G), the formula of 08.4, numbered from 0).
plot::HeatmapGrid key_sharing_grid(const std::vector<Tensor3<double>>& weights, const std::vector<std::size_t>& kv_heads);

}  // namespace attn::ch08
