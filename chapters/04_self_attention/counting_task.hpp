// The counting task of chapter 04: a task that needs the whole sequence. Each position's
// label is how many times its token occurs in the sequence, so position i must compare its
// token with every other position, however far away. What matters for a model with a
// limited reach is the distance to the farthest other occurrence of the token.
#pragma once
#include "common/random.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace attn::ch04 {

struct CountingTask {
    std::size_t length = 32;    // tokens per sequence
    // Tokens drawn uniformly from 32: about a third of the positions hold a unique token, the
    // others repeat at every distance; a model that sees only a window can trust its count
    // when the window holds every occurrence, and is misled when one lies outside.
    std::size_t vocab = 32;
    std::size_t classes = 5;    // labels 1, 2, ..., classes; a count above is labelled `classes`
};

// A batch of sequences, all (batch, length): the tokens, the class of each position (its
// token's count minus 1, capped at classes - 1) and the distance from the position to the
// farthest other occurrence of its token (0 if the token occurs once).
struct CountingBatch {
    xt::xarray<std::int64_t> tokens, classes, farthest;
};

CountingBatch make_counting_batch(const CountingTask& task, std::size_t batch, Rng& rng);
// The labels and distances of given tokens (batch, length); make_counting_batch draws the tokens.
CountingBatch label_counting_batch(const CountingTask& task, xt::xarray<std::int64_t> tokens);

// Farthest distances grouped by powers of two: 0 (the token is unique), 1-3, 4-7, 8-15,
// 16-31, ...; bucket_of(d) is the index of d's group, bucket_names() their labels up to
// distances below `length`.
std::size_t bucket_of(std::size_t distance);
std::vector<std::string> bucket_names(std::size_t length);

}  // namespace attn::ch04
