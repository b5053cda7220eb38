// Atomic file writes and careful reads (see files.hpp). Introduced in chapter 00.
#include "common/files.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace attn {

namespace fs = std::filesystem;

void ensure_directory(const fs::path& dir) {
    if (dir.empty()) return;
    std::error_code error;
    fs::create_directories(dir, error);
    if (error) throw std::runtime_error(dir.string() + ": cannot create the folder: " + error.message());
}

void sync_to_disk(const fs::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw std::runtime_error(path.string() + ": cannot open it to flush it to disk: " + std::strerror(errno));
    const bool ok = ::fsync(fd) == 0 || errno == EINVAL;   // EINVAL: a file system without fsync
    ::close(fd);
    if (!ok) throw std::runtime_error(path.string() + ": cannot flush it to disk: " + std::strerror(errno));
}

void write_text_atomically(const fs::path& path, const std::string& contents) {
    ensure_directory(path.parent_path());
    // The process id keeps two runs writing the same file from sharing a temp file.
    const fs::path temp = path.string() + ".tmp" + std::to_string(::getpid());
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
    try {
        sync_to_disk(temp);   // the data is on the disk before its name is
    } catch (const std::runtime_error&) {
        std::remove(temp.c_str());
        throw;
    }
    fs::rename(temp, path, error);
    if (error) {
        std::remove(temp.c_str());
        throw std::runtime_error(path.string() + ": cannot move the finished file into place: " + error.message());
    }
}

void require_regular_file(const fs::path& path, const std::string& what) {
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    if (!fs::exists(status)) throw std::runtime_error(path.string() + ": cannot open " + what + ": it does not exist");
    if (fs::is_directory(status)) throw std::runtime_error(path.string() + ": cannot open " + what + ": it is a folder");
    if (!fs::is_regular_file(status))
        throw std::runtime_error(path.string() + ": cannot open " + what +
                                 ": it is not a regular file (a FIFO, socket or device); give a file");
}

std::string read_text(const fs::path& path) {
    require_regular_file(path);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path.string() + ": cannot open the file for reading");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void check_writable_folder(const fs::path& dir, const std::string& flag) {
    const std::string name = flag + " " + dir.string();
    std::error_code error;
    fs::path existing = dir.empty() ? fs::path(".") : dir;
    // The nearest part of the path that exists: that is where the folder would be created.
    while (!fs::exists(fs::symlink_status(existing, error)) && existing.has_parent_path() &&
           existing.parent_path() != existing)
        existing = existing.parent_path();
    if (!fs::exists(fs::symlink_status(existing, error))) existing = ".";
    if (!fs::is_directory(existing, error)) {
        const fs::file_status target = fs::status(existing, error);
        const std::string what = fs::is_regular_file(target) ? "a file"
                                 : !fs::exists(target)       ? "a symbolic link to nothing"
                                                             : "a FIFO, a socket or a device";
        throw std::runtime_error(name + ": " + (existing == dir ? std::string("it is ") : existing.string() + " is ") +
                                 what + ", not a folder; name a folder");
    }
    if (::access(existing.c_str(), W_OK | X_OK) != 0)
        throw std::runtime_error(name + ": cannot write in " + existing.string() + " (" + std::strerror(errno) +
                                 "); choose a folder you may write to");
}

bool process_alive(long pid) {
    if (pid <= 0 || pid > std::numeric_limits<pid_t>::max()) return false;
    return pid == ::getpid() || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

}  // namespace attn
