// Exercise 04.3: the graph-adjacency mask, equation (4.5).
#include "chapters/04_self_attention/graph_mask.hpp"

namespace attn::ch04 {

// blocked[b, i, j] = not (adjacency(i, j) or i == j): node i listens to the nodes that
// send it a message (edges j -> i), and to itself                                       (4.5)
ch03::Mask graph_mask(const xt::xarray<bool>& adjacency, std::size_t batch) {
    // TODO(04.3): check the adjacency with check_adjacency("graph_mask", adjacency), then
    //             build a (batch, n, n) mask where node i may look at node j only if
    //             adjacency(i, j) is true or j is i itself (4.5). Hint: ./course hint 04.3
    COURSE_TODO("04.3");
}

}  // namespace attn::ch04
