// How much memory a decoder's key/value cache takes (part 5): every layer keeps a key and a
// value vector per cached token for each of its G key/value heads,
//   bytes = 2 (K and V) x layers x G x d_h x bytes per number x tokens                   (8.14)
// so grouped-query attention divides the cache by H / G. Plain arithmetic, no tensors.
#pragma once
#include <cstdint>
#include <filesystem>

namespace attn::ch08 {

struct CacheShape {
    std::uint64_t layers;             // layers that keep a cache (a decoder's)
    std::uint64_t heads;              // H, query heads (they set d_h; the cache holds G of them)
    std::uint64_t head_size;          // d_h
    std::uint64_t bytes_per_number;   // 4 for float32, 2 for 16-bit numbers
};

// 2 x layers x G x d_h x bytes per number: one token's keys and values in every layer   (8.14)
std::uint64_t cache_bytes_per_token(const CacheShape& shape, std::uint64_t kv_heads);

// The shape of a 7B-parameter model as Llama 2 7B publishes it (Touvron et al., 2023): 32
// layers, 32 query heads of d_h = 128 (d_model 4096), 16-bit numbers. It keeps G = 32 (plain
// multi-head attention); Mistral 7B (Jiang et al., 2023) has the same shape with G = 8.
constexpr CacheShape seven_billion_shape{32, 32, 128, 2};

// The sizes of chapter 07's default translation model, read by running chapter 07's own
// command line with no flags (its d_model, heads and layers; float32 numbers), so that a
// change of its defaults shows here. `out` is only checked for writing, as chapter 07 checks
// its --out; pass this run's folder.
struct Chapter07Model {
    std::uint64_t d_model, heads, decoder_layers;
};
Chapter07Model chapter07_default_model(const std::filesystem::path& out);

}  // namespace attn::ch08
