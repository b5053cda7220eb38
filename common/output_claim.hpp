// One run at a time in an output folder. Two runs drawing into one --out at once would leave
// it with one run's summary and the other's figures, each believable alone. So a run claims
// its output folder (a lock on the folder itself, flock(2): no file is written, and the kernel
// drops the lock when the process ends, however it ends); a second run into a claimed folder
// is refused with one line, before any work when the folder already exists, and at its first
// write into it otherwise.
#pragma once
#include <filesystem>
#include <string>

namespace attn {

// Claims `dir` for this process, if it exists (a folder not made yet is claimed by the first
// write into it: plot::save_and_report and Summary::write call this). Claiming twice is one
// claim. Throws std::runtime_error "FLAG DIR: another run is writing there now; ..." (with
// `flag` the option that named it, "--out", or none) if another process holds it.
void claim_output_folder(const std::filesystem::path& dir, const std::string& flag = "");

}  // namespace attn
