// Exercise 04.4: an image as a sequence of patch vectors, and back, equation (4.6).
#include "chapters/04_self_attention/patchify.hpp"

#include "common/xtensor_compat.hpp"

namespace attn::ch04 {

// patches[b, r (W/p) + c, ch p^2 + u p + v] = images[b, ch, r p + u, c p + v]             (4.6)
// Row y = r p + u of an image splits into (grid row r, pixel row u), column x = c p + v into
// (grid column c, pixel column v); reordering the axes to (b, r, c, ch, u, v) puts each
// patch's numbers side by side, patches in grid order.
// images (b, channels, H, W) -> patches (b, (H/p) (W/p), channels p p)
template <class T>
Array<T> patchify(const Array<T>& images, std::size_t p) {
    check_patch_size("patchify", Shape(images.shape().begin(), images.shape().end()), p);
    const std::size_t batch = images.shape(0), channels = images.shape(1);
    const std::size_t rows = images.shape(2) / p, cols = images.shape(3) / p;   // the patch grid
    Array<T> split = images;
    split.reshape({batch, channels, rows, p, cols, p});            // (b, ch, r, u, c, v)
    Array<T> patches = xt::transpose(split, {0, 2, 4, 1, 3, 5});   // (b, r, c, ch, u, v)
    patches.reshape({batch, rows * cols, channels * p * p});
    return patches;
}

// The same steps backwards: split each patch index into (r, c) and each feature into
// (ch, u, v), put the axes back in image order (b, ch, r, u, c, v), merge r u and c v.
template <class T>
Array<T> unpatchify(const Array<T>& patches, std::size_t channels, std::size_t H, std::size_t W, std::size_t p) {
    check_patches_shape("unpatchify", Shape(patches.shape().begin(), patches.shape().end()), channels, H, W, p);
    const std::size_t batch = patches.shape(0), rows = H / p, cols = W / p;
    Array<T> split = patches;
    split.reshape({batch, rows, cols, channels, p, p});            // (b, r, c, ch, u, v)
    Array<T> images = xt::transpose(split, {0, 3, 1, 4, 2, 5});    // (b, ch, r, u, c, v)
    images.reshape({batch, channels, H, W});
    return images;
}

// ---- instantiations: do not edit ----
template Array<float> patchify(const Array<float>&, std::size_t);
template Array<double> patchify(const Array<double>&, std::size_t);
template Array<float> unpatchify(const Array<float>&, std::size_t, std::size_t, std::size_t, std::size_t);
template Array<double> unpatchify(const Array<double>&, std::size_t, std::size_t, std::size_t, std::size_t);

}  // namespace attn::ch04
