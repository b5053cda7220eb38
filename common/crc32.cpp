// CRC-32, bit-reflected, polynomial 0xEDB88320 (see crc32.hpp).
#include "common/crc32.hpp"

#include <array>
#include <cstdio>

namespace attn {

namespace {

// Byte-at-a-time table: entry b is the remainder of the byte b alone.
std::array<std::uint32_t, 256> make_table() {
    std::array<std::uint32_t, 256> table{};
    for (std::uint32_t b = 0; b < 256; ++b) {
        std::uint32_t r = b;
        for (int bit = 0; bit < 8; ++bit) r = (r & 1u) ? (r >> 1) ^ 0xEDB88320u : r >> 1;
        table[b] = r;
    }
    return table;
}

}  // namespace

std::uint32_t crc32(const std::string& bytes) {
    static const std::array<std::uint32_t, 256> table = make_table();
    std::uint32_t r = 0xFFFFFFFFu;
    for (const char c : bytes) r = table[(r ^ static_cast<unsigned char>(c)) & 0xFFu] ^ (r >> 8);
    return r ^ 0xFFFFFFFFu;
}

std::string crc32_hex(const std::string& bytes) {
    char text[9];
    std::snprintf(text, sizeof text, "%08x", static_cast<unsigned>(crc32(bytes)));
    return text;
}

}  // namespace attn
