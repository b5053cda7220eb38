// Removing a folder the course marked as its own (a figure being rendered, a checkpoint being
// replaced): the marker file inside is what tells the course's folders from the learner's, so
// it goes last. A kill part-way through then leaves a folder that is still marked, which the
// next clean-up takes, never an unmarked one the course must leave alone as the learner's.
#pragma once
#include <filesystem>
#include <functional>
#include <string>

namespace attn {

// Removes everything in `folder` but the file `marker`, then calls `between` (if given: a test
// hook for "killed here"), then removes the marker and the folder. Errors are ignored: it is a
// clean-up, and whatever it leaves is still marked.
void remove_marked_folder(const std::filesystem::path& folder, const std::string& marker,
                          const std::function<void()>& between = {});

}  // namespace attn
