// Exercise 04.3: the graph-adjacency mask, equation (4.5).
#include "chapters/04_self_attention/graph_mask.hpp"

namespace attn::ch04 {

// blocked[b, i, j] = not (adjacency(i, j) or i == j): node i listens to the nodes that
// send it a message (edges j -> i), and to itself                                       (4.5)
ch03::Mask graph_mask(const xt::xarray<bool>& adjacency, std::size_t batch) {
    check_adjacency("graph_mask", adjacency);
    const std::size_t n = adjacency.shape(0);
    ch03::Mask blocked = xt::zeros<bool>({batch, n, n});
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) blocked(b, i, j) = !(adjacency(i, j) || i == j);
    return blocked;
}

}  // namespace attn::ch04
