// Exercise 04.3: the graph-adjacency mask, equation (4.5).
#pragma once
#include "chapters/03_queries_keys_values/attention.hpp"

namespace attn::ch04 {

// Self-attention over the nodes of a graph, where a node attends only to its neighbours.
// The direction convention: adjacency(i, j) == true when node i receives a message from
// node j, that is, when there is an edge j -> i. Row i of the adjacency lists whom node i
// listens to, exactly as row i of the attention weights lists whom query i looks at.
// A node always attends to itself, so no row of the mask is empty:
//   blocked[b, i, j] = not (adjacency(i, j) or i == j)                                 (4.5)
// adjacency (n, n) -> ch03::Mask (batch, n, n), the same for every batch entry (true =
// blocked). For an undirected graph the adjacency is symmetric and the direction does not
// matter. Throws std::invalid_argument unless the adjacency is a square matrix.
ch03::Mask graph_mask(const xt::xarray<bool>& adjacency, std::size_t batch);

// Throws std::invalid_argument, naming `who` and the shape, unless adjacency is (n, n).
void check_adjacency(const char* who, const xt::xarray<bool>& adjacency);

}  // namespace attn::ch04
