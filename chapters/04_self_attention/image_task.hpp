// The image task of chapter 04: counting, in two dimensions and from pixels. An image is an
// 8 x 8 grid of patches on a grey background; a few patches are filled with a colour of a
// small palette, and every pixel gets a little noise. Each coloured patch is labelled with
// how many patches of the image share its colour. A patch must recognise its colour and
// compare it with every other patch of the image, however far away; what matters for a model
// with a limited reach is the Chebyshev distance (the larger of the row and the column
// distance) to the farthest patch of the same colour.
#pragma once
#include "common/autodiff/var.hpp"
#include "common/random.hpp"
#include "common/tensor.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace attn::ch04 {

struct ImageTask {
    std::size_t grid = 8;        // patches per side: 64 patches per image
    std::size_t patch = 2;       // pixels per patch side
    std::size_t channels = 3;    // red, green, blue
    // 8 coloured patches at random places, each of one of 8 colours drawn uniformly: a patch
    // shares its colour with another one about as often as not, and the three classes below
    // hold about 40 %, 40 % and 20 % of the coloured patches. With so few repeats, a model that
    // sees part of the image can trust the count it sees, and is wrong when a repeat lies outside.
    std::size_t coloured = 8;
    std::size_t colours = 8;
    std::size_t classes = 3;     // labels 1, 2, ..., classes patches of this colour; more is `classes`
    double noise = 0.05;         // standard deviation of the noise added to every pixel value
    std::size_t side() const { return grid * patch; }   // pixels per image side
    std::size_t patches() const { return grid * grid; }
};

// The palette, (colours, channels) in [0, 1]: the corners of the RGB cube pulled towards
// mid-grey (each channel 0.1 or 0.9: near-black, red, green, yellow, blue, magenta, cyan,
// near-white). Seen from grey they point in 8 directions, so a dot product, which queries and
// keys compute, tells them apart; the grey background sits at the centre.
Matrix<double> image_palette(const ImageTask& task);
constexpr double background_grey = 0.5;

// A batch of images: the pixels (batch, channels, side, side) in [0, 1], and per patch
// (batch, grid * grid, patches along the grid's rows as in patchify): its colour (-1 for the
// background), its class (the number of patches of that colour minus 1, capped at classes - 1;
// -1 for the background, which is not counted: cross_entropy ignores it) and the Chebyshev
// distance to the farthest other patch of its colour (0 if the colour occurs once; -1 for the
// background).
struct ImageBatch {
    Array<float> images;
    xt::xarray<std::int64_t> colours, classes, farthest;
};
constexpr std::int64_t background = -1;

ImageBatch make_image_batch(const ImageTask& task, std::size_t batch, Rng& rng);
// The labels and distances of given patch colours (batch, grid * grid), `background` where no
// colour is; no pixels.
ImageBatch label_image_batch(const ImageTask& task, xt::xarray<std::int64_t> colours);
// The images b of `batch` listed in `which`, in that order.
ImageBatch select_images(const ImageBatch& batch, const std::vector<std::size_t>& which);

// The patches' farthest distances are 0 (a unique colour) to grid - 1: one bucket each.
std::vector<std::string> image_distance_names(const ImageTask& task);

}  // namespace attn::ch04
