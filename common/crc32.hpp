// CRC-32 (the checksum of zip, gzip, PNG and Python's zlib.crc32): catches a flipped bit or a
// damaged block in a saved file. Checkpoints record one per parameter file. Introduced in
// chapter 01 (with checkpoints).
#pragma once
#include <cstdint>
#include <string>

namespace attn {

// The CRC-32 of `bytes`; crc32("123456789") == 0xCBF43926, the standard check value.
std::uint32_t crc32(const std::string& bytes);

// The checksum as eight lower-case hex digits, as checkpoints' manifest.tsv records it.
std::string crc32_hex(const std::string& bytes);

}  // namespace attn
