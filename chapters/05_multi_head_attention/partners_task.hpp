// The partners task of chapter 05: a task that needs two relations at once and no positions.
// A set of items, each with a colour, a shape and a digit; every colour occurs on exactly two
// items and so does every shape, so each item has a colour partner and a shape partner (two
// different items). Item i's label is the colour partner's digit minus the shape partner's
// digit: it needs both partners, and which one is which.
#pragma once
#include "common/random.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace attn::ch05 {

struct PartnersTask {
    std::size_t items = 8;      // per set (even): items / 2 colours and items / 2 shapes occur
    std::size_t colours = 8;    // to draw the set's colours from
    std::size_t shapes = 8;     // to draw the set's shapes from
    std::size_t digits = 10;    // 0 .. digits - 1
    // Labels run from -(digits - 1) to digits - 1, stored shifted by digits - 1 as 0 .. classes - 1.
    std::size_t classes() const { return 2 * digits - 1; }
};

// A batch of sets, all (batch, items): each item's attributes, its partners' indices in its
// set and its class (colour partner's digit - shape partner's digit + digits - 1).
struct PartnersBatch {
    xt::xarray<std::int64_t> colour, shape, digit;
    xt::xarray<std::int64_t> colour_partner, shape_partner, classes;
};

// Fresh random sets: colours and shapes each paired at random, never the same two items twice.
PartnersBatch make_partners_batch(const PartnersTask& task, std::size_t batch, Rng& rng);
// The partners and classes of given attributes (batch, items); throws std::invalid_argument
// if a colour or a shape does not occur exactly twice in a set, or if an item's colour
// partner is also its shape partner.
PartnersBatch label_partners_batch(const PartnersTask& task, xt::xarray<std::int64_t> colour,
                                   xt::xarray<std::int64_t> shape, xt::xarray<std::int64_t> digit);

// "red□3": an item's name for tick labels and printouts.
std::string item_name(const PartnersBatch& batch, std::size_t set, std::size_t item);

}  // namespace attn::ch05
