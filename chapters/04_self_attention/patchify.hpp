// Exercise 04.4: an image as a sequence of patch vectors, and back, equation (4.6).
#pragma once
#include "common/autodiff/var.hpp"

namespace attn::ch04 {

// Cut each image into p x p patches and flatten every patch into one vector, so that an
// image becomes a set of vectors that self-attention can read. With a grid of
// (H/p) x (W/p) patches, patch (r, c) of the grid (row r, column c) and pixel (u, v) inside
// it (row u, column v):
//   patches[b, r (W/p) + c, ch p^2 + u p + v] = images[b, ch, r p + u, c p + v]          (4.6)
// So the patches run along the grid's rows (left to right, then top to bottom), and each
// patch vector holds its channels one after the other, each channel row by row. This is
// PyTorch's x.unfold(2, p, p).unfold(3, p, p).permute(0, 2, 3, 1, 4, 5).reshape(b, -1, c p p).
// images (batch, channels, H, W) -> patches (batch, (H/p) (W/p), channels p p).
// Throws std::invalid_argument, naming the function and the shape, unless the images are
// 4-D and H and W are multiples of p >= 1.
template <class T>
Array<T> patchify(const Array<T>& images, std::size_t p);

// The exact inverse of patchify, for plotting what a model did with each patch:
// unpatchify(patchify(x, p), channels, H, W, p) == x.
// patches (batch, (H/p) (W/p), channels p p) -> images (batch, channels, H, W).
// Throws std::invalid_argument, naming the function and the shapes, if they do not fit.
template <class T>
Array<T> unpatchify(const Array<T>& patches, std::size_t channels, std::size_t H, std::size_t W, std::size_t p);

// The checks patchify and unpatchify start with: throw std::invalid_argument, naming `who`
// and the shapes, unless images (batch, channels, H, W) can be cut into p x p patches, or
// unless patches is (batch, (H/p) (W/p), channels p p) for such an image.
void check_patch_size(const char* who, const Shape& images, std::size_t p);
void check_patches_shape(const char* who, const Shape& patches, std::size_t channels, std::size_t H, std::size_t W,
                         std::size_t p);

}  // namespace attn::ch04
