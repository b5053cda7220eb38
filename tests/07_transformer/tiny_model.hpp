// The smallest translation model the chapter-07 tests train or decode with: two blocks a side,
// so that the caches and the layer loops are exercised, and fast enough for a unit test.
#pragma once
#include "chapters/07_transformer/translation_model.hpp"

namespace attn::ch07::testing {

inline TranslationSizes tiny_sizes() {
    TranslationSizes sizes;
    sizes.source_vocab = 9;
    sizes.target_vocab = 8;
    sizes.transformer.d_model = 8;
    sizes.transformer.heads = 2;
    sizes.transformer.feed_forward = 16;
    sizes.transformer.encoder_layers = sizes.transformer.decoder_layers = 2;
    return sizes;
}

}  // namespace attn::ch07::testing
