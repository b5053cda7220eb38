// The .npy format (NumPy's own), written and read with every check done by hand, so that a
// truncated or foreign file gives a clear one-line error instead of garbage. Introduced in
// chapter 01 (checkpoints).
#pragma once
#include "common/autodiff/var.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace attn {

// Writes `values` as a little-endian, C-order .npy file ('<f4' for float, '<f8' for double),
// atomically. Throws std::runtime_error naming the file if it cannot.
template <class T> void write_npy(const std::filesystem::path& path, const Array<T>& values);

// Reads a .npy file written by write_npy or numpy.save. Throws std::runtime_error with
// "PATH: what is wrong" for a missing file or one that is not a regular file, a bad header, another dtype, Fortran order, or a
// data size that does not match the shape (a truncated file).
template <class T> Array<T> read_npy(const std::filesystem::path& path);

// A size written in decimal digits ("128"), or nullopt for anything else: a sign, spaces, or
// a number too large for std::size_t. Shared by the .npy header and the checkpoint manifest.
std::optional<std::size_t> parse_size(const std::string& digits);
// The bytes an array of `shape` takes, or nullopt if that number overflows std::size_t.
std::optional<std::size_t> byte_count(const Shape& shape, std::size_t element_size);

}  // namespace attn
