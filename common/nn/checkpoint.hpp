// Checkpoints: a folder with one .npy file per parameter (named after it, readable by
// numpy.load) and manifest.tsv listing name, shape, dtype and file. Saving is atomic (a new
// folder is written, then swapped in); loading checks every name and shape first and names
// every mismatch, so a model is never half-loaded. Introduced in chapter 01.
#pragma once
#include "common/nn/module.hpp"

#include <filesystem>
#include <map>
#include <string>

namespace attn {

// Writes every parameter of `model` to `dir`, plus `extra_files` (name -> text, e.g. the
// vocabularies and settings a chapter needs to use the model again). Replaces `dir` whole.
template <class T>
void save_checkpoint(const Module<T>& model, const std::filesystem::path& dir,
                     const std::map<std::string, std::string>& extra_files = {});

// Loads `dir` into `model`. Throws std::runtime_error with one line naming the folder and
// every problem (missing or unexpected parameters, shape mismatches, bad files); the model is
// unchanged unless everything checks out.
template <class T>
void load_checkpoint(Module<T>& model, const std::filesystem::path& dir);

}  // namespace attn
