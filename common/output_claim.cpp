#include "common/output_claim.hpp"

#include <cerrno>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <stdexcept>
#include <sys/file.h>
#include <unistd.h>

namespace attn {

namespace fs = std::filesystem;

namespace {

// The folders this process holds, by their canonical path; each descriptor stays open until
// the process ends, which is what keeps the lock.
std::mutex claims_lock;
std::map<fs::path, int>& claimed_folders() {
    static std::map<fs::path, int> folders;
    return folders;
}

}  // namespace

void claim_output_folder(const fs::path& dir, const std::string& flag) {
    std::error_code error;
    const fs::path folder = fs::canonical(dir, error);
    if (error || !fs::is_directory(folder, error)) return;   // not made yet: its first write claims it
    const std::lock_guard<std::mutex> hold(claims_lock);
    if (claimed_folders().count(folder)) return;
    // O_CLOEXEC: gnuplot, which the plots run, must not inherit the claim and keep it after us.
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;   // a folder we cannot open we cannot write either: that write says so
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int why = errno;
        ::close(fd);
        if (why == EWOULDBLOCK)
            throw std::runtime_error((flag.empty() ? "" : flag + " ") + dir.string() + ": another run is writing there now; wait for it to finish, "
                                     "or give this run another --out");
        return;   // a file system without locks (some network ones): run unguarded, as before
    }
    claimed_folders()[folder] = fd;
}

}  // namespace attn
