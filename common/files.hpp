// Writing results safely: a file is written under a temporary name, flushed to the disk and
// renamed into place, so a crash, a kill or a full disk never leaves a half-written file
// behind. Reading accepts regular files only, so a FIFO or a device named by mistake gives
// a one-line error instead of a hang. Introduced in chapter 00.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>

namespace attn {

// Removes the temporaries of `path` (PATH.tmp<pid>, PATH.tmp<pid>_<n>) that killed processes
// left; those of running processes, and every other file, stay.
void remove_killed_temporaries_of(const std::filesystem::path& path);

// Writes `contents` to `path` atomically (temp file in the same folder, fsync, then rename).
// Creates the parent folder. Throws std::runtime_error naming the file on failure. The temp file
// is new (PATH.tmp<pid>, or PATH.tmp<pid>_<n> if that name is taken: nothing is overwritten);
// the temp files of PATH that killed processes left (their process gone) are removed.
void write_text_atomically(const std::filesystem::path& path, const std::string& contents);

// Creates `dir` (and parents) if needed; throws std::runtime_error naming it on failure.
void ensure_directory(const std::filesystem::path& dir);

// Reads a whole regular file; throws std::runtime_error naming the file if it is missing, is
// not a regular file (a folder, a FIFO, a device) or cannot be read.
std::string read_text(const std::filesystem::path& path);

// The same for a file whose size has a known bound (a checkpoint's manifest, a parameter file):
// a larger one is refused, before it is read, as damaged or not `what` ("the manifest").
std::string read_text(const std::filesystem::path& path, std::uintmax_t at_most, const std::string& what);

// Throws std::runtime_error "PATH: what is wrong" unless `path` is an existing regular file
// (symbolic links are followed). `what` names the file in the message ("the corpus").
void require_regular_file(const std::filesystem::path& path, const std::string& what = "the file");

// Checks, before any work is done, that a folder can be created or written at `dir`: it is an
// existing folder, or its nearest existing ancestor is a folder, and we may write there.
// Throws std::runtime_error "FLAG DIR: what is wrong" otherwise (or "FLAG GIVEN", when the folder
// checked is where the path the user gave would be created); creates nothing. A name in the path
// longer than the file system allows (NAME_MAX) is refused too.
void check_writable_folder(const std::filesystem::path& dir, const std::string& flag,
                           const std::filesystem::path& given = {});

// Flushes a file's or a folder's contents to the disk (fsync), so that a rename that follows
// cannot reach the disk before the data it names. Throws std::runtime_error on failure.
void sync_to_disk(const std::filesystem::path& path);

// Is process `pid` running? (This process counts; one we may not signal runs too.) The
// clean-ups of killed saves and renders use it: a temporary named after a live process is
// still being written.
bool process_alive(long pid);

}  // namespace attn
