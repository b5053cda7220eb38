// The input checks of exercises 04.3 and 04.4 (declared in graph_mask.hpp and patchify.hpp):
// one line that says which function, what is wrong and the shapes involved.
#include "chapters/04_self_attention/graph_mask.hpp"
#include "chapters/04_self_attention/patchify.hpp"

#include <stdexcept>
#include <string>

namespace attn::ch04 {

namespace {
template <class Shape>
std::string text(const Shape& shape) {
    std::string out = "(";
    for (std::size_t k = 0; k < shape.size(); ++k) out += (k ? ", " : "") + std::to_string(shape[k]);
    return out + ")";
}
}  // namespace

void check_adjacency(const char* who, const xt::xarray<bool>& adjacency) {
    if (adjacency.dimension() != 2 || adjacency.shape(0) != adjacency.shape(1))
        throw std::invalid_argument(std::string(who) + ": the adjacency must be a square (n, n) matrix, got " +
                                    text(adjacency.shape()));
}

void check_patch_size(const char* who, const Shape& images, std::size_t p) {
    if (images.size() != 4)
        throw std::invalid_argument(std::string(who) + ": images must be (batch, channels, H, W), got " + text(images));
    if (p == 0 || images[2] % p != 0 || images[3] % p != 0)
        throw std::invalid_argument(std::string(who) + ": images " + text(images) + " cannot be cut into " +
                                    std::to_string(p) + " x " + std::to_string(p) +
                                    " patches: H and W must be multiples of the patch size");
}

void check_patches_shape(const char* who, const Shape& patches, std::size_t channels, std::size_t H, std::size_t W,
                         std::size_t p) {
    const Shape image{patches.empty() ? 0 : patches[0], channels, H, W};
    check_patch_size(who, image, p);
    const Shape expected{image[0], (H / p) * (W / p), channels * p * p};
    if (patches != expected)
        throw std::invalid_argument(std::string(who) + ": patches of an image " + text(image) + " in " +
                                    std::to_string(p) + " x " + std::to_string(p) + " patches must be " +
                                    text(expected) + ", got " + text(patches));
}

}  // namespace attn::ch04
