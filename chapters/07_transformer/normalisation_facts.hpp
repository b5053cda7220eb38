// Part 1 of chapter 07: why the Transformer normalises each position on its own (layer
// normalisation, (7.1)) rather than each feature over the batch. A short sentence is normalised
// alone, then in a batch beside longer ones (so padded to their length), both ways.
#pragma once
#include "common/plot.hpp"
#include "common/random.hpp"

#include <vector>

namespace attn::ch07 {

struct NormalisationFacts {
    std::vector<double> lengths, layer_change, batch_change;   // per padded length
    double mean_error = 0, variance = 0;                         // of the layer-normalised rows
};

// A short sentence normalised alone, then in a batch beside a long one of length L (so padded
// to L): how far its normalised rows move, for each L. Prints the table of part 1.
NormalisationFacts compare_normalisations(Rng& rng);

plot::LinePlot normalisation_plot(const NormalisationFacts& facts);

}  // namespace attn::ch07
