// Atomic file writes (see files.hpp). Introduced in chapter 00.
#include "common/files.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <unistd.h>

namespace attn {

void ensure_directory(const std::filesystem::path& dir) {
    if (dir.empty()) return;
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error) throw std::runtime_error(dir.string() + ": cannot create the folder: " + error.message());
}

void write_text_atomically(const std::filesystem::path& path, const std::string& contents) {
    ensure_directory(path.parent_path());
    // The process id keeps two runs writing the same file from sharing a temp file.
    const std::filesystem::path temp = path.string() + ".tmp" + std::to_string(::getpid());
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        out << contents;
        out.flush();
        if (!out) {
            std::remove(temp.c_str());
            throw std::runtime_error(path.string() + ": cannot write the file (disk full or no permission?)");
        }
    }
    std::error_code error;
    std::filesystem::rename(temp, path, error);
    if (error) {
        std::remove(temp.c_str());
        throw std::runtime_error(path.string() + ": cannot move the finished file into place: " + error.message());
    }
}

std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path.string() + ": cannot open the file for reading");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace attn
