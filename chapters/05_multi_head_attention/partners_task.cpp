// The partners task's data (see partners_task.hpp).
#include "chapters/05_multi_head_attention/partners_task.hpp"

#include <array>
#include <stdexcept>

namespace attn::ch05 {

namespace {

// Values 0 .. count - 1 of `values_of_set` are used twice each: a random pairing of the
// items, the pairs labelled with the first items / 2 entries of a shuffled 0 .. count - 1.
void draw_pairs(std::size_t count, const std::vector<std::size_t>& items_order, Rng& rng, xt::xarray<std::int64_t>& out,
                std::size_t set) {
    const std::vector<std::size_t> values = rng.permutation(count);
    for (std::size_t k = 0; k < items_order.size(); ++k)
        out(set, items_order[k]) = static_cast<std::int64_t>(values[k / 2]);
}

// The other item of `set` holding `value` in `attribute`, or -1 if it is not exactly one.
std::int64_t partner_of(const xt::xarray<std::int64_t>& attribute, std::size_t set, std::size_t item) {
    std::int64_t partner = -1;
    for (std::size_t j = 0; j < attribute.shape(1); ++j) {
        if (j == item || attribute(set, j) != attribute(set, item)) continue;
        if (partner >= 0) return -1;
        partner = static_cast<std::int64_t>(j);
    }
    return partner;
}

}  // namespace

PartnersBatch make_partners_batch(const PartnersTask& task, std::size_t batch, Rng& rng) {
    const std::size_t n = task.items;
    xt::xarray<std::int64_t> colour = xt::zeros<std::int64_t>({batch, n}), shape = colour, digit = colour;
    for (std::size_t b = 0; b < batch; ++b) {
        draw_pairs(task.colours, rng.permutation(n), rng, colour, b);
        // Redraw the shapes' pairing until no two items share both colour and shape.
        for (bool clash = true; clash;) {
            draw_pairs(task.shapes, rng.permutation(n), rng, shape, b);
            clash = false;
            for (std::size_t i = 0; i < n; ++i)
                clash = clash || partner_of(colour, b, i) == partner_of(shape, b, i);
        }
        for (std::size_t i = 0; i < n; ++i) digit(b, i) = static_cast<std::int64_t>(rng.below(task.digits));
    }
    return label_partners_batch(task, std::move(colour), std::move(shape), std::move(digit));
}

PartnersBatch label_partners_batch(const PartnersTask& task, xt::xarray<std::int64_t> colour,
                                   xt::xarray<std::int64_t> shape, xt::xarray<std::int64_t> digit) {
    if (colour.dimension() != 2 || colour.shape() != shape.shape() || colour.shape() != digit.shape() ||
        colour.shape(1) != task.items)
        throw std::invalid_argument("label_partners_batch: expected colour, shape and digit of one shape (batch, " +
                                    std::to_string(task.items) + ")");
    const std::size_t batch = colour.shape(0), n = task.items;
    PartnersBatch result{std::move(colour), std::move(shape), std::move(digit), xt::zeros<std::int64_t>({batch, n}),
                         xt::zeros<std::int64_t>({batch, n}), xt::zeros<std::int64_t>({batch, n})};
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t i = 0; i < n; ++i) {
            const std::int64_t by_colour = partner_of(result.colour, b, i), by_shape = partner_of(result.shape, b, i);
            if (by_colour < 0 || by_shape < 0 || by_colour == by_shape)
                throw std::invalid_argument("label_partners_batch: set " + std::to_string(b) + ", item " +
                                            std::to_string(i) +
                                            ": every colour and every shape must occur exactly twice, on "
                                            "two different pairs of items");
            result.colour_partner(b, i) = by_colour;
            result.shape_partner(b, i) = by_shape;
            result.classes(b, i) = result.digit(b, by_colour) - result.digit(b, by_shape) +
                                   static_cast<std::int64_t>(task.digits) - 1;
        }
    return result;
}

std::string item_name(const PartnersBatch& batch, std::size_t set, std::size_t item) {
    static const std::array<const char*, 8> colours = {"red", "blue", "green", "pink", "grey", "tan", "cyan", "plum"};
    static const std::array<const char*, 8> shapes = {"□", "○", "△", "◇", "☆", "♡", "▽", "✕"};
    const auto name = [](const auto& names, std::int64_t k) {
        return static_cast<std::size_t>(k) < names.size() ? std::string(names[k]) : "#" + std::to_string(k);
    };
    return name(colours, batch.colour(set, item)) + name(shapes, batch.shape(set, item)) +
           std::to_string(batch.digit(set, item));
}

}  // namespace attn::ch05
