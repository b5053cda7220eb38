// The key/value cache's size (see cache_arithmetic.hpp).
#include "chapters/08_attention_at_scale/cache_arithmetic.hpp"

#include "chapters/01_encoder_decoder/app.hpp"
#include "chapters/07_transformer/recipes.hpp"
#include "chapters/07_transformer/transformer_flags.hpp"

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
    const std::string chapter07_dir = "07_transformer", out_text = out.string();
    ch01::AppSettings settings;
    ch07::TransformerFlags flags;
    CommandLine cli("ch07", "chapter 07's default model");
    ch01::add_seq2seq_flags(cli, settings, chapter07_dir, ch07::chapter07_recipes, ch01::SizeFlags::transformer);
    ch07::add_transformer_flags(cli, settings, flags);
    const char* argv[] = {"ch07", "--out", out_text.c_str()};
    cli.parse(3, argv);
    ch01::finish_seq2seq_flags(cli, settings, chapter07_dir, ch07::chapter07_recipes);
    ch07::finish_transformer_flags(cli, settings, flags);
    const ch07::TranslationSizes sizes = ch07::translation_sizes(settings, flags, ch01::Task{});
    return {sizes.transformer.d_model, sizes.transformer.heads, sizes.transformer.decoder_layers};
}

}  // namespace attn::ch08
