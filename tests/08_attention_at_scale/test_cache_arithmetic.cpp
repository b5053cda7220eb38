// The key/value cache's size, equation (8.14) (cache_arithmetic.hpp), against sums done by hand,
// and chapter 07's defaults as its program sets them.
#include "chapters/08_attention_at_scale/cache_arithmetic.hpp"
#include "chapters/07_transformer/transformer_layers.hpp"
#include "tests/support/property.hpp"

#include <filesystem>
#include <stdexcept>

using attn::ch08::cache_bytes_per_token;

TEST_CASE("key/value cache arithmetic (8.14)" * doctest::test_suite("ch08")) {
    PROPERTY("a 7B model's cache at 32,768 tokens: 16 GiB with 32 key/value heads, 4 GiB with 8, 0.5 GiB with 1") {
        // 2 x 32 layers x 32 heads x 128 x 2 bytes = 524,288 bytes = 512 KiB per token;
        // x 32,768 tokens = 2^19 x 2^15 = 2^34 bytes = 16 GiB. G = 8: a quarter; G = 1: 1/32.
        const attn::ch08::CacheShape shape = attn::ch08::seven_billion_shape;
        CHECK(cache_bytes_per_token(shape, 32) == 524288);
        CHECK(cache_bytes_per_token(shape, 32) * 32768 == (std::uint64_t{16} << 30));
        CHECK(cache_bytes_per_token(shape, 8) * 32768 == (std::uint64_t{4} << 30));
        CHECK(cache_bytes_per_token(shape, 1) * 32768 == (std::uint64_t{512} << 20));
    };
    PROPERTY("a small case by hand, and key/value heads that do not divide the heads refused") {
        // 2 x 3 layers x 2 heads x 5 x 4 bytes = 240 bytes.
        const attn::ch08::CacheShape shape{3, 4, 5, 4};
        CHECK(cache_bytes_per_token(shape, 2) == 240);
        CHECK_THROWS_AS(cache_bytes_per_token(shape, 3), std::invalid_argument);
        CHECK_THROWS_AS(cache_bytes_per_token(shape, 0), std::invalid_argument);
    };
    PROPERTY("chapter 07's default model, read from its own command line: d_model 64, 4 heads, 2 decoder layers") {
        // The values chapter 07's lesson gives for its default run; the TransformerSizes defaults agree.
        const attn::ch08::Chapter07Model model =
            attn::ch08::chapter07_default_model(std::filesystem::temp_directory_path());
        const attn::ch07::TransformerSizes sizes;
        CHECK(model.d_model == 64);
        CHECK(model.heads == 4);
        CHECK(model.decoder_layers == 2);
        CHECK(model.d_model == sizes.d_model);
        CHECK(model.heads == sizes.heads);
        CHECK(model.decoder_layers == sizes.decoder_layers);
    };
}
