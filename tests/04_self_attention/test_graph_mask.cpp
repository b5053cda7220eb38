// Self-checks for exercise 04.3: graph_mask (exercises/04_self_attention/graph_mask.cpp).
#include "chapters/04_self_attention/graph_mask.hpp"
#include "tests/03_queries_keys_values/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/check_mask.hpp"
#include "tests/support/property.hpp"

using attn::ch03::Mask;
using Adjacency = xt::xarray<bool>;

namespace {
constexpr bool o = false, X = true;   // o: may look, X: blocked (the hand-worked tables below)

// A directed graph of 5 nodes with the edges 0 -> 1, 1 -> 2, 2 -> 3, 3 -> 4, 0 -> 2 and 4 -> 1.
// adjacency(i, j) is the edge j -> i: row i lists the nodes that node i hears from.
// Node 0 has no incoming edge.
Adjacency directed_graph() {
    Adjacency adjacency = xt::zeros<bool>({5, 5});
    for (const auto& [from, to] : std::vector<std::pair<int, int>>{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 2}, {4, 1}})
        adjacency(to, from) = true;
    return adjacency;
}
}  // namespace

TEST_CASE("04.3 graph_mask" * doctest::test_suite("ch04")) {
    PROPERTY("a node always attends to itself, even with no edges at all") {
        const Mask blocked = attn::ch04::graph_mask(Adjacency(xt::zeros<bool>({3, 3})), 1);
        REQUIRE_SHAPE(blocked.shape(), {1, 3, 3});
        const Mask expected = golden03::t3<bool>({{{o, X, X}, {X, o, X}, {X, X, o}}});
        CHECK_MASK(blocked, expected);
    };
    PROPERTY("the direction: adjacency(1, 0) (an edge 0 -> 1) lets node 1 attend to node 0, not node 0 to node 1") {
        Adjacency adjacency = xt::zeros<bool>({2, 2});
        adjacency(1, 0) = true;
        const Mask blocked = attn::ch04::graph_mask(adjacency, 1);
        REQUIRE_SHAPE(blocked.shape(), {1, 2, 2});
        CHECK_MASK_ENTRY(blocked, 0, 1, 0, o, "adjacency(1, 0) is the edge 0 -> 1: node 1 hears from node 0");
        CHECK_MASK_ENTRY(blocked, 0, 0, 1, X, "adjacency(0, 1) is false: there is no edge 1 -> 0");
    };
    PROPERTY("a 5-node directed graph, worked by hand: row i sees i and the senders of its incoming edges") {
        // node 0: no incoming edge -> itself;  node 1: from 0 and 4;  node 2: from 1 and 0;
        // node 3: from 2;  node 4: from 3
        const Mask expected = golden03::t3<bool>(
            {{{o, X, X, X, X}, {o, o, X, X, o}, {o, o, o, X, X}, {X, X, o, o, X}, {X, X, X, o, o}}});
        CHECK_MASK(attn::ch04::graph_mask(directed_graph(), 1), expected);
    };
    PROPERTY("no row is empty: every node sees at least itself") {
        const Mask blocked = attn::ch04::graph_mask(directed_graph(), 1);
        for (std::size_t i = 0; i < 5; ++i) CHECK_FALSE(xt::all(xt::view(blocked, 0, i, xt::all())));
    };
    PROPERTY("a complete graph blocks nothing") {
        CHECK_FALSE(xt::any(attn::ch04::graph_mask(Adjacency(xt::ones<bool>({4, 4})), 2)));
    };
    PROPERTY("every batch entry gets the same mask") {
        const Mask blocked = attn::ch04::graph_mask(directed_graph(), 3);
        REQUIRE_SHAPE(blocked.shape(), {3, 5, 5});
        const Mask first = xt::view(blocked, 0);
        const Mask last = xt::view(blocked, 2);
        CHECK_MASK(last, first);
    };
    PROPERTY("an adjacency that is not a square matrix is refused") {
        CHECK_THROWS_AS(attn::ch04::graph_mask(Adjacency(xt::zeros<bool>({3, 4})), 1), std::invalid_argument);
        CHECK_THROWS_AS(attn::ch04::graph_mask(Adjacency(xt::zeros<bool>({3})), 1), std::invalid_argument);
    };
}
