// Available memory and the refusal of runs that cannot fit (see memory.hpp).
#include "common/memory.hpp"

#include "common/cli.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>

namespace attn {

namespace {

// The first number of a file (cgroup v2's memory.max holds "max" when there is no limit).
std::optional<std::uint64_t> number_in(const char* path) {
    std::ifstream in(path);
    std::uint64_t value = 0;
    if (in >> value) return value;
    return std::nullopt;
}

std::optional<std::uint64_t> meminfo_available() {
    std::ifstream in("/proc/meminfo");
    std::string key;
    std::uint64_t kib = 0;
    std::string unit;
    while (in >> key >> kib >> unit)
        if (key == "MemAvailable:") return kib * 1024;
    return std::nullopt;
}

// The process's address space in bytes (/proc/self/statm's first number, in pages).
std::optional<std::uint64_t> mapped_bytes() {
    const std::optional<std::uint64_t> pages = number_in("/proc/self/statm");
    const long page_size = ::sysconf(_SC_PAGESIZE);
    if (!pages || page_size <= 0) return std::nullopt;
    return *pages * static_cast<std::uint64_t>(page_size);
}

}  // namespace

std::optional<std::uint64_t> available_memory() {
    std::optional<std::uint64_t> available = meminfo_available();
    const std::optional<std::uint64_t> limit = number_in("/sys/fs/cgroup/memory.max");
    const std::optional<std::uint64_t> used = number_in("/sys/fs/cgroup/memory.current");
    if (limit && used) {
        const std::uint64_t room = *limit > *used ? *limit - *used : 0;
        available = available ? std::min(*available, room) : room;
    }
    // A limit on the address space (`ulimit -v`) counts what the process has mapped already.
    rlimit address_space{};
    const std::optional<std::uint64_t> mapped = mapped_bytes();
    if (::getrlimit(RLIMIT_AS, &address_space) == 0 && address_space.rlim_cur != RLIM_INFINITY && mapped) {
        const std::uint64_t limit = address_space.rlim_cur;
        const std::uint64_t room = limit > *mapped ? limit - *mapped : 0;
        available = available ? std::min(*available, room) : room;
    }
    return available;
}

std::string memory_text(std::uint64_t bytes) {
    char text[32];
    const double mib = static_cast<double>(bytes) / (1024.0 * 1024.0);
    if (mib >= 1024) std::snprintf(text, sizeof text, "%.1f GiB", mib / 1024);
    else std::snprintf(text, sizeof text, "%.0f MiB", mib);
    return text;
}

void require_memory(std::uint64_t estimate, const std::string& what, const std::string& advice,
                    std::optional<std::uint64_t> available) {
    if (available && estimate > *available)
        throw InputError(what + " needs about " + memory_text(estimate) + " of memory (an estimate), but " +
                         memory_text(*available) + " is available: " + advice);
}

}  // namespace attn
