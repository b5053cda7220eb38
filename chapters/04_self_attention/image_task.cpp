// The image task's data (see image_task.hpp).
#include "chapters/04_self_attention/image_task.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace attn::ch04 {

Matrix<double> image_palette(const ImageTask& task) {
    if (task.colours > 8) throw std::invalid_argument("image_palette: the RGB cube has 8 corners, not " +
                                                      std::to_string(task.colours));
    Matrix<double> palette = xt::zeros<double>({task.colours, std::size_t{3}});
    for (std::size_t k = 0; k < task.colours; ++k)
        for (std::size_t ch = 0; ch < 3; ++ch) palette(k, ch) = (k >> ch) & 1 ? 0.9 : 0.1;   // bit ch of k: channel ch on
    return palette;
}

ImageBatch make_image_batch(const ImageTask& task, std::size_t batch, Rng& rng) {
    if (task.channels != 3) throw std::invalid_argument("make_image_batch: the palette is RGB, so channels must be 3");
    if (task.coloured > task.patches())
        throw std::invalid_argument("make_image_batch: more coloured patches than the grid has");
    xt::xarray<std::int64_t> colours = xt::xarray<std::int64_t>::from_shape({batch, task.patches()});
    colours.fill(background);
    for (std::size_t b = 0; b < batch; ++b) {
        const std::vector<std::size_t> places = rng.permutation(task.patches());
        for (std::size_t k = 0; k < task.coloured; ++k)
            colours(b, places[k]) = static_cast<std::int64_t>(rng.below(task.colours));
    }
    ImageBatch result = label_image_batch(task, std::move(colours));
    const Matrix<double> palette = image_palette(task);
    const std::size_t p = task.patch;
    result.images = xt::zeros<float>({batch, task.channels, task.side(), task.side()});
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t k = 0; k < task.patches(); ++k) {
            const std::size_t r = k / task.grid, c = k % task.grid;
            const std::int64_t colour = result.colours(b, k);
            for (std::size_t ch = 0; ch < task.channels; ++ch)
                for (std::size_t u = 0; u < p; ++u)
                    for (std::size_t v = 0; v < p; ++v) {
                        const double clean = colour == background ? background_grey
                                                                  : palette(static_cast<std::size_t>(colour), ch);
                        const double value = clean + rng.normal(0.0, task.noise);
                        result.images(b, ch, r * p + u, c * p + v) = static_cast<float>(std::clamp(value, 0.0, 1.0));
                    }
        }
    return result;
}

ImageBatch label_image_batch(const ImageTask& task, xt::xarray<std::int64_t> colours) {
    if (colours.dimension() != 2 || colours.shape(1) != task.patches() || task.classes < 1)
        throw std::invalid_argument("label_image_batch: expected colours of shape (batch, " +
                                    std::to_string(task.patches()) + ") and at least one class");
    const std::size_t batch = colours.shape(0), n = task.patches();
    ImageBatch result{{}, std::move(colours), xt::zeros<std::int64_t>({batch, n}), xt::zeros<std::int64_t>({batch, n})};
    const auto row = [&](std::size_t k) { return static_cast<long>(k / task.grid); };
    const auto column = [&](std::size_t k) { return static_cast<long>(k % task.grid); };
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t i = 0; i < n; ++i) {
            if (result.colours(b, i) == background) {
                result.classes(b, i) = result.farthest(b, i) = background;
                continue;
            }
            std::int64_t count = 0, farthest = 0;
            for (std::size_t j = 0; j < n; ++j)   // n^2 per image: the labels, not the model
                if (result.colours(b, j) == result.colours(b, i)) {
                    ++count;
                    farthest = std::max<std::int64_t>(
                        farthest, std::max(std::labs(row(i) - row(j)), std::labs(column(i) - column(j))));
                }
            result.classes(b, i) = std::min<std::int64_t>(count, static_cast<std::int64_t>(task.classes)) - 1;
            result.farthest(b, i) = farthest;
        }
    return result;
}

ImageBatch select_images(const ImageBatch& batch, const std::vector<std::size_t>& which) {
    ImageBatch chosen;
    chosen.images = xt::view(batch.images, xt::keep(which));
    chosen.colours = xt::view(batch.colours, xt::keep(which));
    chosen.classes = xt::view(batch.classes, xt::keep(which));
    chosen.farthest = xt::view(batch.farthest, xt::keep(which));
    return chosen;
}

std::vector<std::string> image_distance_names(const ImageTask& task) {
    std::vector<std::string> names{"0 (unique)"};
    for (std::size_t d = 1; d < task.grid; ++d) names.push_back(std::to_string(d));
    return names;
}

}  // namespace attn::ch04
