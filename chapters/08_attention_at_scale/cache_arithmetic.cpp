// The key/value cache's size (see cache_arithmetic.hpp).
#include "chapters/08_attention_at_scale/cache_arithmetic.hpp"

#include "chapters/07_transformer/transformer_flags.hpp"
#include "chapters/08_attention_at_scale/chapter07_translation.hpp"

#include <stdexcept>
#include <string>

namespace attn::ch08 {

std::uint64_t cache_bytes_per_token(const CacheShape& shape, std::uint64_t kv_heads) {
    if (kv_heads == 0 || shape.heads % kv_heads != 0)
        throw std::invalid_argument("cache_bytes_per_token: kv_heads " + std::to_string(kv_heads) +
                                    " must be a positive divisor of heads " + std::to_string(shape.heads));
    return 2 * shape.layers * kv_heads * shape.head_size * shape.bytes_per_number;   // (8.14)
}

Chapter07Model chapter07_default_model(const std::filesystem::path& out) {
    // Chapter 07's program with no flag but --out: its own defaults, set where it sets them.
    const Chapter07Settings chapter07 = chapter07_settings({"--out", out.string()});
    const ch07::TranslationSizes sizes = ch07::translation_sizes(chapter07.settings, chapter07.flags, ch01::Task{});
    return {sizes.transformer.d_model, sizes.transformer.heads, sizes.transformer.decoder_layers};
}

}  // namespace attn::ch08
