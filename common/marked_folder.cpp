// Removing a marked folder, its marker last (see marked_folder.hpp).
#include "common/marked_folder.hpp"

#include <vector>

namespace fs = std::filesystem;

namespace attn {

void remove_marked_folder(const fs::path& folder, const std::string& marker, const std::function<void()>& between) {
    std::error_code error;
    std::vector<fs::path> contents;
    for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error))
        if (it->path().filename() != marker) contents.push_back(it->path());
    for (const fs::path& entry : contents) fs::remove_all(entry, error);
    if (between) between();
    fs::remove(folder / marker, error);
    fs::remove(folder, error);
}

}  // namespace attn
