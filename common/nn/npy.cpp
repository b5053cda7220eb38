// .npy files (see npy.hpp). Format: "\x93NUMPY", version (1, 0), a little-endian uint16 header
// length, a Python dict literal padded with spaces to a multiple of 64 bytes, then the data.
#include "common/nn/npy.hpp"

#include "common/files.hpp"

#include <cstring>
#include <limits>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace attn {

namespace {

template <class T> const char* descr();
template <> const char* descr<float>() { return "<f4"; }
template <> const char* descr<double>() { return "<f8"; }

std::runtime_error bad_file(const std::filesystem::path& path, const std::string& what) {
    return std::runtime_error(path.string() + ": " + what);
}

Shape parse_shape(const std::filesystem::path& path, const std::string& tuple) {
    Shape shape;
    std::stringstream items(tuple);
    for (std::string item; std::getline(items, item, ',');) {
        item.erase(0, item.find_first_not_of(' '));
        item.erase(item.find_last_not_of(' ') + 1);
        if (item.empty()) continue;   // "(5,)" has an empty last item
        const std::optional<std::size_t> size = parse_size(item);
        if (!size) throw bad_file(path, "the .npy header has a malformed or too large shape (" + tuple + ")");
        shape.push_back(*size);
    }
    return shape;
}

}  // namespace

std::optional<std::size_t> parse_size(const std::string& digits) {
    if (digits.empty() || digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;   // 18 digits always fit in 64 bits, so no overflow below
    const unsigned long long value = std::stoull(digits);
    if (value > std::numeric_limits<std::size_t>::max()) return std::nullopt;
    return static_cast<std::size_t>(value);
}

std::optional<std::size_t> byte_count(const Shape& shape, std::size_t element_size) {
    std::size_t bytes = element_size;
    for (const std::size_t size : shape) {
        if (size != 0 && bytes > std::numeric_limits<std::size_t>::max() / size) return std::nullopt;
        bytes *= size;
    }
    return bytes;
}

template <class T>
void write_npy(const std::filesystem::path& path, const Array<T>& values) {
    // Python tuple syntax: "()", "(5,)", "(2, 3)"
    const std::size_t rank = values.dimension();
    std::string shape = "(";
    for (std::size_t d = 0; d < rank; ++d)
        shape += std::to_string(values.shape(d)) + (rank == 1 ? "," : d + 1 < rank ? ", " : "");
    shape += ")";
    std::string header = "{'descr': '" + std::string(descr<T>()) + "', 'fortran_order': False, 'shape': " + shape + ", }";
    const std::size_t unpadded = 10 + header.size() + 1;   // magic + version + length, header, newline
    header += std::string((64 - unpadded % 64) % 64, ' ') + "\n";
    std::string bytes = std::string("\x93NUMPY\x01\x00", 8);
    bytes += static_cast<char>(header.size() & 0xff);
    bytes += static_cast<char>(header.size() >> 8);
    bytes += header;
    bytes.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
    write_text_atomically(path, bytes);
}

template <class T>
Array<T> read_npy(const std::filesystem::path& path) {
    require_regular_file(path, "the .npy file");   // a FIFO or a device would hang or never end
    const std::string bytes = read_text(path);
    if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) throw bad_file(path, "not a .npy file (bad magic bytes)");
    const int major = static_cast<unsigned char>(bytes[6]);
    const std::size_t length_bytes = major == 1 ? 2 : 4;
    if (major < 1 || major > 3) throw bad_file(path, "unsupported .npy version " + std::to_string(major));
    std::size_t header_length = 0;
    for (std::size_t k = 0; k < length_bytes; ++k)
        header_length |= static_cast<std::size_t>(static_cast<unsigned char>(bytes[8 + k])) << (8 * k);
    const std::size_t data_start = 8 + length_bytes + header_length;
    if (bytes.size() < data_start) throw bad_file(path, "truncated inside the .npy header");
    const std::string header = bytes.substr(8 + length_bytes, header_length);

    std::smatch match;
    if (!std::regex_search(header, match, std::regex(R"('descr':\s*'([^']*)')")))
        throw bad_file(path, "the .npy header has no dtype");
    if (match[1] != descr<T>())
        throw bad_file(path, "holds '" + match[1].str() + "' values, expected '" + descr<T>() + "'");
    if (!std::regex_search(header, std::regex(R"('fortran_order':\s*False)")))
        throw bad_file(path, "is in Fortran order; save it in C order (numpy.ascontiguousarray)");
    if (!std::regex_search(header, match, std::regex(R"('shape':\s*\(([^)]*)\))")))
        throw bad_file(path, "the .npy header has no shape");
    const Shape shape = parse_shape(path, match[1]);

    // The byte count is checked before anything is allocated: a forged shape must not
    // allocate terabytes.
    const std::optional<std::size_t> needed = byte_count(shape, sizeof(T));
    if (!needed) throw bad_file(path, "its shape " + shape_string(shape) + " is too large to hold in memory");
    const std::size_t expected = *needed, found = bytes.size() - data_start;
    if (found != expected)
        throw bad_file(path, "holds " + std::to_string(found) + " bytes of data but its shape " + shape_string(shape) +
                                 " needs " + std::to_string(expected) + (found < expected ? " (truncated)" : ""));
    Array<T> values = Array<T>::from_shape(shape);
    std::memcpy(values.data(), bytes.data() + data_start, expected);
    return values;
}

// ---- instantiations: do not edit ----
template void write_npy(const std::filesystem::path&, const Array<float>&);
template void write_npy(const std::filesystem::path&, const Array<double>&);
template Array<float> read_npy(const std::filesystem::path&);
template Array<double> read_npy(const std::filesystem::path&);

}  // namespace attn
