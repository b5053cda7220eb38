// Measuring time and memory alone. Memory that malloc keeps for reuse, and the process's peak
// resident memory, carry over from one measurement to the next; a forked child starts each
// one from the parent's state instead. Chapter 04's layer costs and bench_attention use it.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <type_traits>

namespace attn {

// The growth of resident memory while `body` runs, at its peak, in MiB. Free heap goes back to
// the system first and the kernel's high-water mark is reset (/proc/self/clear_refs), so that
// neither an earlier, larger allocation nor memory malloc kept for reuse hides this one's.
double peak_growth_mib(const std::function<void()>& body);

namespace detail {
// Forks; the child calls fill(buffer) and sends the `size` bytes of buffer back through a pipe,
// which the parent writes into `result`.
void run_in_child(const std::string& who, const std::function<void(void*)>& fill, void* result, std::size_t size);
}  // namespace detail

// Runs `measure` in a forked child process and returns what it returned there. If `measure`
// throws in the child, the child prints "<who>: <message>" to stderr, and the parent throws
// std::runtime_error naming `who`. The child never returns into the parent's code: it leaves
// through _exit, which also skips the destructors of the parent's objects.
template <class Result>
Result in_child_process(const std::string& who, const std::function<Result()>& measure) {
    static_assert(std::is_trivially_copyable_v<Result>, "in_child_process sends the result's bytes through a pipe");
    Result result{};
    detail::run_in_child(who, [&](void* out) { *static_cast<Result*>(out) = measure(); }, &result, sizeof result);
    return result;
}

}  // namespace attn
