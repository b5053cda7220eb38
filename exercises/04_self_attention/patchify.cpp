// Exercise 04.4: an image as a sequence of patch vectors, and back, equation (4.6).
#include "chapters/04_self_attention/patchify.hpp"

#include "common/xtensor_compat.hpp"

namespace attn::ch04 {

// patches[b, r (W/p) + c, ch p^2 + u p + v] = images[b, ch, r p + u, c p + v]             (4.6)
// images (b, channels, H, W) -> patches (b, (H/p) (W/p), channels p p)
template <class T>
Array<T> patchify(const Array<T>& images, std::size_t p) {
    // TODO(04.4): check the shape with check_patch_size("patchify", ...), then copy every
    //             pixel of every channel to its patch and its place in the patch vector
    //             (4.6): patches in grid order (left to right, then top to bottom), each
    //             patch channel after channel, each channel row by row.
    //             Hint: ./course hint 04.4
    COURSE_TODO("04.4");
}

// The exact inverse: unpatchify(patchify(x, p), channels, H, W, p) == x.
template <class T>
Array<T> unpatchify(const Array<T>& patches, std::size_t channels, std::size_t H, std::size_t W, std::size_t p) {
    // TODO(04.4): check the shape with check_patches_shape("unpatchify", ...), then put
    //             every number of every patch back at its pixel (4.6, read right to left).
    COURSE_TODO("04.4");
}

// ---- instantiations: do not edit ----
template Array<float> patchify(const Array<float>&, std::size_t);
template Array<double> patchify(const Array<double>&, std::size_t);
template Array<float> unpatchify(const Array<float>&, std::size_t, std::size_t, std::size_t, std::size_t);
template Array<double> unpatchify(const Array<double>&, std::size_t, std::size_t, std::size_t, std::size_t);

}  // namespace attn::ch04
