// Chapter 08's figures: what is drawn, separate from the story main.cpp tells.
#pragma once
#include "common/plot.hpp"

#include <cstddef>

namespace attn::ch08 {

// The tiling picture: the n x n score matrix of causal attention cut into blocks of
// `query_block` queries by `key_block` keys, each score coloured by what the tiled pass does
// with it: never computed (its tile lies above the diagonal and is skipped), computed but
// blocked (j > i inside a tile that straddles the diagonal), computed and used.
plot::Heatmap tiling_picture(std::size_t n, std::size_t query_block, std::size_t key_block);

}  // namespace attn::ch08
