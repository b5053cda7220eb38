// Measuring in a fresh process (see child_process.hpp).
#include "common/child_process.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <iostream>
#include <stdexcept>
#include <vector>

namespace attn::detail {

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

}  // namespace attn::detail
