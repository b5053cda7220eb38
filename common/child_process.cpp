// Measuring in a fresh process (see child_process.hpp).
#include "common/child_process.hpp"

#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <stdexcept>
#include <vector>

namespace attn {

namespace {
double status_mib(const std::string& key) {   // "VmRSS" or "VmHWM" of /proc/self/status, in MiB
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind(key + ":", 0) == 0) return std::stod(line.substr(key.size() + 1)) / 1024.0;   // kB
    return 0;
}
}  // namespace

double peak_growth_mib(const std::function<void()>& body) {
    malloc_trim(0);
    std::ofstream("/proc/self/clear_refs") << "5";   // VmHWM := VmRSS
    const double before = status_mib("VmRSS");
    body();
    return status_mib("VmHWM") - before;
}

namespace detail {

void run_in_child(const std::string& who, const std::function<void(void*)>& fill, void* result, std::size_t size) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error(who + ": cannot create a pipe");
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(who + ": cannot start a child process");
    if (pid == 0) {
        close(fds[0]);
        try {
            std::vector<char> buffer(size);
            fill(buffer.data());
            _exit(write(fds[1], buffer.data(), size) == static_cast<ssize_t>(size) ? 0 : 1);
        } catch (const std::exception& e) {   // e.g. an exercise not done yet: say so, once
            std::cerr << who << ": " << e.what() << std::endl;
        }
        _exit(1);
    }
    close(fds[1]);
    const ssize_t got = read(fds[0], result, size);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (got != static_cast<ssize_t>(size) || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error(who + ": a measurement's child process failed");
}

}  // namespace detail

}  // namespace attn
