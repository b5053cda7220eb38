// Checkpoints: a folder with one .npy file per parameter (named after it, readable by
// numpy.load) and manifest.tsv listing name, shape, dtype and file. Saving is atomic: a new
// folder is written and flushed to disk, then exchanged with the old one in one step, so a
// kill at any moment leaves either the whole old checkpoint or the whole new one; the
// leftovers of a killed save are removed by the next save. Loading checks every name, shape,
// file and value first and names every problem, so a model is never half-loaded.
// Introduced in chapter 01.
#pragma once
#include "common/nn/module.hpp"

#include <filesystem>
#include <map>
#include <string>

namespace attn {

// Writes every parameter of `model` to `dir`, plus `extra_files` (name -> text, e.g. the
// vocabularies and settings a chapter needs to use the model again). Replaces `dir` whole,
// but only if it is a checkpoint (or an empty folder): see check_checkpoint_target.
template <class T>
void save_checkpoint(const Module<T>& model, const std::filesystem::path& dir,
                     const std::map<std::string, std::string>& extra_files = {});

// Loads `dir` into `model`. Throws std::runtime_error with one line naming the folder and
// every problem (missing or unexpected parameters, shape mismatches, bad or foreign files,
// NaN or infinite values); the model is unchanged unless everything checks out. The
// manifest may only name files inside `dir`.
template <class T>
void load_checkpoint(Module<T>& model, const std::filesystem::path& dir);

// True when `dir` is a folder written by save_checkpoint (it holds our manifest.tsv).
bool is_checkpoint_folder(const std::filesystem::path& dir);

// Throws std::runtime_error "FLAG DIR: what is wrong" unless save_checkpoint may write `dir`:
// it must not exist yet, or be an empty folder, or be a checkpoint (which is then replaced),
// and a folder must be creatable there. Anything else (the learner's exercises, a file, ".")
// is refused, so a save never deletes what is not a checkpoint. Programs call it before
// training, so a bad --save costs nothing.
void check_checkpoint_target(const std::filesystem::path& dir, const std::string& flag = "--save");

// Throws std::runtime_error "FLAG DIR: what is wrong" unless `dir` holds a checkpoint (a folder
// with a manifest.tsv of save_checkpoint's), after putting back one that a killed save left
// aside. Programs call it before training, so a --load that cannot work costs nothing; the
// load itself checks every file.
void check_checkpoint_source(const std::filesystem::path& dir, const std::string& flag = "--load");

namespace testing {
// Called by save_checkpoint after each of its steps (1: temp folder made, 2: parameters
// written, 3: extra files written, 4: manifest written, 5: flushed to disk, 6: old and new
// exchanged, 7: old removed; 8: between the two renames of the fallback; 9: the old checkpoint's
// files removed, its stamp not yet), so a test can kill
// the process there. Null in programs.
extern void (*after_save_step)(int step);
// True: save as on a file system without an atomic exchange (two renames). False in programs.
extern bool without_exchange;
}  // namespace testing

}  // namespace attn
