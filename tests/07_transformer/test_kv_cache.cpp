// The key/value cache around exercise 07.4: the whole decoder stepped through its cache,
// attention over cached keys and values, and beam search's reorder.
#include "chapters/07_transformer/kv_cache.hpp"
#include "chapters/03_queries_keys_values/causal_mask.hpp"
#include "chapters/05_multi_head_attention/multi_head_attention.hpp"
#include "chapters/07_transformer/transformer.hpp"
#include "tests/07_transformer/kv_cache_fixture.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/property.hpp"

#include <stdexcept>

using attn::Var;
using attn::ch07::NormPlacement;
using namespace kv_fixture;

namespace {

// Two ways to the same numbers, in a different order of operations.
constexpr double same_rtol = 1e-12, same_atol = 1e-12;

// Rows `rows` of x along axis 0.
Var<double> pick(const Var<double>& x, const std::vector<std::size_t>& rows) { return attn::index_select(x, 0, rows); }

}  // namespace

TEST_CASE("07 the decoder stepped through its key/value cache" * doctest::test_suite("ch07")) {
    attn::Rng rng(31);
    const Var<double> source = attn::constant<double>(support::random_array({batch, source_len, 8}, 41));
    const Var<double> y = attn::constant<double>(support::random_array({batch, target_len, 8}, 42));
    const attn::ch03::Mask padding = memory_padding(), causal = attn::ch03::causal_mask(batch, target_len);

    PROPERTY("step t of the whole decoder is row t of decode() with a causal mask, post- and pre-norm") {
        for (NormPlacement norm : {NormPlacement::post, NormPlacement::pre}) {
            attn::ch07::Transformer<double> model(sizes(norm), rng);
            randomize(model, norm == NormPlacement::post ? 300 : 400);
            const attn::ch07::EncoderOutput<double> encoded = attn::ch07::encode(model, source, padding);
            const attn::ch07::TransformerOutput<double> full =
                attn::ch07::decode(model, encoded, y, causal, attn::ch03::no_mask(), padding);
            attn::ch07::DecoderCache<double> cache = attn::ch07::start_cache(model.decoder, encoded.memory, padding);
            for (std::size_t t = 0; t < target_len; ++t) {
                INFO((norm == NormPlacement::post ? "post-norm" : "pre-norm") << ", position " << t);
                attn::ch07::DecoderStep<double> step = attn::ch07::decoder_stack_step(model.decoder, at(y, t), cache);
                CHECK_ALLCLOSE(step.output.value(), at(full.output, t).value(), same_rtol, same_atol);
                REQUIRE(step.cross_weights.size() == full.cross_weights.size());
                for (std::size_t l = 0; l < step.cross_weights.size(); ++l)
                    CHECK_ALLCLOSE(step.cross_weights[l].value(), at(full.cross_weights[l], t, 2).value(), same_rtol, same_atol);
                for (const attn::ch07::LayerCache<double>& layer : step.cache.layers) CHECK(layer.length() == t + 1);
                cache = step.cache;
            }
        }
    };
    PROPERTY("attention over keys and values projected from y is chapter 05's multi_head_attention(x, y, y)") {
        attn::ch05::MultiHeadAttention<double> layer(8, 2, rng);
        randomize(layer, 500);
        const Var<double> x = attn::constant<double>(support::random_array({batch, 3, 8}, 43));
        using attn::ch07::Projection;
        const attn::ch03::Attention<double> cached = attn::ch07::attend_heads(
            layer, x, project_heads(layer, source, Projection::key), project_heads(layer, source, Projection::value),
            padding);
        const attn::ch05::MultiHeadOutput<double> expected =
            attn::ch05::multi_head_attention(layer, x, source, source, padding);
        CHECK_ALLCLOSE(cached.output.value(), expected.output.value(), same_rtol, same_atol);
        CHECK_ALLCLOSE(cached.weights.value(), expected.head_weights.value(), same_rtol, same_atol);
    };
    PROPERTY("a reordered cache continues its parents' sentences: rows {1, 1, 0} step like those sentences") {
        // Two steps on sentences (0, 1), then reorder to (1, 1, 0) and step position 2: the
        // same as decoding the sentences (1, 1, 0) from the start.
        attn::ch07::Transformer<double> model(sizes(NormPlacement::post), rng);
        randomize(model, 600);
        const std::vector<std::size_t> parents = {1, 1, 0};
        const Var<double> memory = attn::ch07::encode(model, source, padding).memory;
        attn::ch07::DecoderCache<double> cache = attn::ch07::start_cache(model.decoder, memory, padding);
        for (std::size_t t = 0; t < 2; ++t) cache = attn::ch07::decoder_stack_step(model.decoder, at(y, t), cache).cache;
        const attn::ch07::DecoderCache<double> reordered = attn::ch07::reorder(cache, parents);
        const attn::ch07::DecoderStep<double> step =
            attn::ch07::decoder_stack_step(model.decoder, at(pick(y, parents), 2), reordered);

        attn::ch03::Mask picked_padding = xt::zeros<bool>({parents.size(), source_len});
        for (std::size_t i = 0; i < parents.size(); ++i)
            for (std::size_t j = 0; j < source_len; ++j) picked_padding(i, j) = padding(parents[i], j);
        attn::ch07::EncoderOutput<double> picked{pick(memory, parents), {}};
        const attn::ch07::TransformerOutput<double> full = attn::ch07::decode(
            model, picked, pick(y, parents), attn::ch03::causal_mask(parents.size(), target_len), attn::ch03::no_mask(),
            picked_padding);
        CHECK_ALLCLOSE(step.output.value(), at(full.output, 2).value(), same_rtol, same_atol);
        CHECK(reordered.batch == 3);
    };
    PROPERTY("a cache of another decoder, or a parent that does not exist, is refused with std::invalid_argument") {
        attn::ch07::Transformer<double> model(sizes(NormPlacement::post), rng);
        const Var<double> memory = attn::ch07::encode(model, source, padding).memory;
        attn::ch07::DecoderCache<double> cache = attn::ch07::start_cache(model.decoder, memory, padding);
        cache.layers.pop_back();
        CHECK_THROWS_AS(attn::ch07::decoder_stack_step(model.decoder, at(y, 0), cache), std::invalid_argument);
        CHECK_THROWS_AS(attn::ch07::reorder(cache, {0, 2}), std::invalid_argument);
    };
}
