// Atomic file writes and careful reads (see files.hpp). Introduced in chapter 00.
#include "common/files.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <climits>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <vector>

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

namespace {

// "NAME.tmp<pid>" or "NAME.tmp<pid>_<n>": the temporaries of `name` that process <pid> wrote.
// Returns the pid, or 0 when `candidate` is not named so.
long temporary_pid(const std::string& candidate, const std::string& name) {
    const std::string prefix = name + ".tmp";
    if (candidate.size() <= prefix.size() || candidate.compare(0, prefix.size(), prefix) != 0) return 0;
    const std::string rest = candidate.substr(prefix.size());
    const std::size_t underscore = rest.find('_');
    const std::string digits = rest.substr(0, underscore);
    const std::string counter = underscore == std::string::npos ? "1" : rest.substr(underscore + 1);
    const auto all_digits = [](const std::string& text) {
        return !text.empty() && text.size() <= 10 && text.find_first_not_of("0123456789") == std::string::npos;
    };
    if (!all_digits(digits) || !all_digits(counter)) return 0;
    return std::stol(digits);
}


// Creates a new temporary file for `path`, never opening one that exists (O_EXCL): the first of
// NAME.tmp<pid>, NAME.tmp<pid>_1, ... that is free. Returns its descriptor and name.
int create_temporary(const fs::path& path, fs::path& temp) {
    const std::string base = path.string() + ".tmp" + std::to_string(::getpid());
    for (int attempt = 0; attempt < 100; ++attempt) {
        temp = attempt == 0 ? base : base + "_" + std::to_string(attempt);
        const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

}  // namespace

// Removes the temporaries of `path` that killed processes left (a run killed mid-write); those
// of running processes, and every other file, stay.
void remove_killed_temporaries_of(const fs::path& path) {
    const fs::path folder = path.parent_path().empty() ? fs::path(".") : path.parent_path();
    const std::string name = path.filename().string();
    std::error_code error;
    std::vector<fs::path> stale;
    for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
        const long pid = temporary_pid(it->path().filename().string(), name);
        if (pid > 0 && !process_alive(pid) && fs::is_regular_file(it->symlink_status(error))) stale.push_back(it->path());
    }
    for (const fs::path& file : stale) fs::remove(file, error);
}

void write_text_atomically(const fs::path& path, const std::string& contents) {
    ensure_directory(path.parent_path());
    // The process id keeps two runs writing the same file from sharing a temp file.
    fs::path temp;
    const int fd = create_temporary(path, temp);
    if (fd < 0)
        throw std::runtime_error(path.string() + ": cannot write the file: " + std::strerror(errno) +
                                 " (a folder you may not write to?)");
    std::size_t written = 0;
    while (written < contents.size()) {
        const ssize_t step = ::write(fd, contents.data() + written, contents.size() - written);
        if (step < 0 && errno == EINTR) continue;
        if (step <= 0) break;
        written += static_cast<std::size_t>(step);
    }
    const int write_errno = errno;
    // fsync: the data is on the disk before its name is (EINVAL: a file system without fsync).
    const bool synced = written == contents.size() && (::fsync(fd) == 0 || errno == EINVAL);
    const int sync_errno = errno;
    ::close(fd);
    if (written != contents.size() || !synced) {
        std::remove(temp.c_str());
        throw std::runtime_error(path.string() + ": cannot write the file: " +
                                 std::strerror(written != contents.size() ? write_errno : sync_errno) +
                                 " (is the disk full?)");
    }
    std::error_code error;
    fs::rename(temp, path, error);
    if (error) {
        std::remove(temp.c_str());
        throw std::runtime_error(path.string() + ": cannot move the finished file into place: " + error.message());
    }
    remove_killed_temporaries_of(path);
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

std::string read_text(const fs::path& path, std::uintmax_t at_most, const std::string& what) {
    require_regular_file(path, what);
    std::error_code error;
    const std::uintmax_t size = fs::file_size(path, error);
    if (!error && size > at_most)
        throw std::runtime_error(path.string() + ": " + what + " is " + std::to_string(size) + " bytes, more than the " +
                                 std::to_string(at_most) + " it can hold; the file is damaged or is not " + what);
    return read_text(path);
}

void check_writable_folder(const fs::path& dir, const std::string& flag, const fs::path& given) {
    const std::string name = flag + " " + (given.empty() ? dir : given).string();
    for (const fs::path& part : given.empty() ? dir : given)
        if (part.string().size() > NAME_MAX)
            throw std::runtime_error(name + ": a name in the path is " + std::to_string(part.string().size()) +
                                     " bytes long, more than the file system allows (" + std::to_string(NAME_MAX) +
                                     "); choose a shorter name");
    // The whole path has a limit too (PATH_MAX), and the files written there add their names
    // (a figure's, a temporary suffix): leave them 64 bytes.
    std::error_code error;
    const std::size_t whole = fs::absolute(dir.empty() ? fs::path(".") : dir, error).string().size();
    if (whole + 64 > PATH_MAX)
        throw std::runtime_error(name + ": the path is " + std::to_string(whole) + " bytes long; with the names of its files " +
                                 "it would pass the system's limit of " + std::to_string(PATH_MAX) +
                                 " bytes; choose a shorter folder");
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
