// Writing results safely: a file is written under a temporary name and renamed into place,
// so a crash or a full disk never leaves a half-written file behind. Introduced in chapter 00.
#pragma once
#include <filesystem>
#include <string>

namespace attn {

// Writes `contents` to `path` atomically (temp file in the same folder, then rename).
// Creates the parent folder. Throws std::runtime_error naming the file on failure.
void write_text_atomically(const std::filesystem::path& path, const std::string& contents);

// Creates `dir` (and parents) if needed; throws std::runtime_error naming it on failure.
void ensure_directory(const std::filesystem::path& dir);

// Reads a whole text file; throws std::runtime_error naming the file if it cannot.
std::string read_text(const std::filesystem::path& path);

}  // namespace attn
