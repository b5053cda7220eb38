// Will a run fit in memory? A program estimates what its settings need before it allocates
// (a model of 2048-wide layers, a batch of 8192, a corpus of gigabytes) and refuses, with the
// estimate, what cannot fit, instead of ending minutes later in a bare std::bad_alloc.
// Introduced in chapter 01.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace attn {

// The memory this process may still take: /proc/meminfo's MemAvailable, or less when a
// control group (a container) or a limit on the address space (`ulimit -v`) allows less;
// nullopt where none of them can be read.
std::optional<std::uint64_t> available_memory();

// "1.5 GiB", "310 MiB".
std::string memory_text(std::uint64_t bytes);

// Throws InputError "WHAT needs about X of memory (an estimate), but Y is available: ADVICE"
// when `estimate` exceeds `available` (by default, available_memory(); nothing is checked
// when that is unknown).
void require_memory(std::uint64_t estimate, const std::string& what, const std::string& advice,
                    std::optional<std::uint64_t> available = available_memory());

}  // namespace attn
