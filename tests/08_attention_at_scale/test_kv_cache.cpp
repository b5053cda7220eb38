// The key/value cache around exercise 08.5: the whole decoder stepped through its cache,
// attention over cached keys and values, and beam search's reorder.
#include "chapters/08_attention_at_scale/kv_cache.hpp"
#include "chapters/08_attention_at_scale/beam_search.hpp"
#include "chapters/08_attention_at_scale/incremental_decoder.hpp"
#include "chapters/01_encoder_decoder/greedy_decode.hpp"
#include "chapters/06_positional_encoding/add_positions.hpp"
#include "chapters/03_queries_keys_values/causal_mask.hpp"
#include "chapters/05_multi_head_attention/multi_head_attention.hpp"
#include "chapters/07_transformer/transformer.hpp"
#include "chapters/08_attention_at_scale/grouped_decoder_layer.hpp"
#include "chapters/08_attention_at_scale/grouped_query_attention.hpp"
#include "chapters/08_attention_at_scale/grouped_query_translation.hpp"
#include "common/nn/layers.hpp"
#include "tests/08_attention_at_scale/kv_cache_fixture.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/property.hpp"

#include "common/xtensor_compat.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

using attn::Var;
using attn::ch07::NormPlacement;
using namespace kv_fixture;

namespace {

// Two ways to the same numbers, in a different order of operations.
constexpr double same_rtol = 1e-12, same_atol = 1e-12;

// Rows `rows` of x along axis 0.
Var<double> pick(const Var<double>& x, const std::vector<std::size_t>& rows) { return attn::index_select(x, 0, rows); }

// attend_heads of x over the keys and values that project_heads makes of y, against the
// layer's own forward of (x, y, y) (its output and head_weights).
template <class AttentionLayer, class Forward>
void check_attention_over_cache(const AttentionLayer& layer, const Var<double>& x, const Var<double>& y,
                                const attn::ch03::Mask& padding, const Forward& expected) {
    using attn::ch08::Projection;
    const attn::ch03::Attention<double> cached = attn::ch08::attend_heads(
        layer, x, project_heads(layer, y, Projection::key), project_heads(layer, y, Projection::value), padding);
    CHECK_ALLCLOSE(cached.output.value(), expected.output.value(), same_rtol, same_atol);
    CHECK_ALLCLOSE(cached.weights.value(), expected.head_weights.value(), same_rtol, same_atol);
}

}  // namespace

TEST_CASE("ch08 the decoder stepped through its key/value cache" * doctest::test_suite("ch08")) {
    attn::Rng rng(31);
    const Var<double> source = attn::constant<double>(support::random_array({batch, source_len, 8}, 41));
    const Var<double> y = attn::constant<double>(support::random_array({batch, target_len, 8}, 42));
    const attn::ch03::Mask padding = memory_padding(), causal = attn::ch03::causal_mask(batch, target_len);

    PROPERTY("step t of the whole decoder is row t of decode() with a causal mask, post- and pre-norm") {
        for (attn::ch07::NormPlacement norm : {NormPlacement::post, NormPlacement::pre}) {
            attn::ch07::Transformer<double> model(sizes(norm), rng);
            randomize(model, norm == NormPlacement::post ? 300 : 400);
            const attn::ch07::EncoderOutput<double> encoded = attn::ch07::encode(model, source, padding);
            const attn::ch07::TransformerOutput<double> full =
                attn::ch07::decode(model, encoded, y, attn::ch03::no_mask(), causal, padding);
            attn::ch08::DecoderCache<double> cache = attn::ch08::start_cache(model.decoder, encoded.memory, padding);
            for (std::size_t t = 0; t < target_len; ++t) {
                INFO((norm == NormPlacement::post ? "post-norm" : "pre-norm") << ", position " << t);
                attn::ch08::DecoderStep<double> step = attn::ch08::decoder_stack_step(model.decoder, at(y, t), cache);
                CHECK_ALLCLOSE(step.output.value(), at(full.output, t).value(), same_rtol, same_atol);
                REQUIRE(step.cross_weights.size() == full.cross_weights.size());
                for (std::size_t l = 0; l < step.cross_weights.size(); ++l)
                    CHECK_ALLCLOSE(step.cross_weights[l].value(), at(full.cross_weights[l], t, 2).value(), same_rtol, same_atol);
                for (const attn::ch08::LayerCache<double>& layer : step.cache.layers) CHECK(layer.length() == t + 1);
                cache = step.cache;
            }
        }
    };
    PROPERTY("attention over keys and values projected from y is chapter 05's multi_head_attention(x, y, y)") {
        attn::ch05::MultiHeadAttention<double> layer(8, 2, rng);
        randomize(layer, 500);
        const Var<double> x = attn::constant<double>(support::random_array({batch, 3, 8}, 43));
        check_attention_over_cache(layer, x, source, padding,
                                   attn::ch05::multi_head_attention(layer, x, source, source, padding));
    };
    PROPERTY("a reordered cache continues its parents' sentences: rows {1, 1, 0} step like those sentences") {
        // Two steps on sentences (0, 1), then reorder to (1, 1, 0) and step position 2: the
        // same as decoding the sentences (1, 1, 0) from the start.
        attn::ch07::Transformer<double> model(sizes(NormPlacement::post), rng);
        randomize(model, 600);
        const std::vector<std::size_t> parents = {1, 1, 0};
        const Var<double> memory = attn::ch07::encode(model, source, padding).memory;
        attn::ch08::DecoderCache<double> cache = attn::ch08::start_cache(model.decoder, memory, padding);
        for (std::size_t t = 0; t < 2; ++t) cache = attn::ch08::decoder_stack_step(model.decoder, at(y, t), cache).cache;
        const attn::ch08::DecoderCache<double> reordered = attn::ch08::reorder(cache, parents);
        const attn::ch08::DecoderStep<double> step =
            attn::ch08::decoder_stack_step(model.decoder, at(pick(y, parents), 2), reordered);

        attn::ch03::Mask picked_padding = xt::zeros<bool>({parents.size(), source_len});
        for (std::size_t i = 0; i < parents.size(); ++i)
            for (std::size_t j = 0; j < source_len; ++j) picked_padding(i, j) = padding(parents[i], j);
        attn::ch07::EncoderOutput<double> picked{pick(memory, parents), {}};
        const attn::ch07::TransformerOutput<double> full = attn::ch07::decode(
            model, picked, pick(y, parents), attn::ch03::no_mask(), attn::ch03::causal_mask(parents.size(), target_len),
            picked_padding);
        CHECK_ALLCLOSE(step.output.value(), at(full.output, 2).value(), same_rtol, same_atol);
        CHECK(reordered.batch == 3);
    };
    PROPERTY("a cache of another decoder, or a parent that does not exist, is refused with std::invalid_argument") {
        attn::ch07::Transformer<double> model(sizes(NormPlacement::post), rng);
        const Var<double> memory = attn::ch07::encode(model, source, padding).memory;
        attn::ch08::DecoderCache<double> cache = attn::ch08::start_cache(model.decoder, memory, padding);
        cache.layers.pop_back();
        CHECK_THROWS_AS(attn::ch08::decoder_stack_step(model.decoder, at(y, 0), cache), std::invalid_argument);
        CHECK_THROWS_AS(attn::ch08::reorder(cache, {0, 2}), std::invalid_argument);
    };
}

namespace {

// A small translation model around a random decoder: token embeddings with chapter 06's
// positions in, an output layer out, as chapter 07's translation model has.
struct TinyTranslator {
    static constexpr std::size_t vocab = 6, d = 8;
    static constexpr std::int64_t bos = 0, eos = 1;
    attn::Rng rng{51};
    attn::ch07::Transformer<double> model{sizes(NormPlacement::post), rng};
    attn::Embedding<double> embed{vocab, d, rng};
    attn::Linear<double> output{d, vocab, rng};

    TinyTranslator() {
        randomize(model, 700);
        output.bias.value()(eos) = -3.0;   // long sentences, so that rows change places in a beam
    }
    Var<double> embed_tokens(const attn::IndexMatrix& tokens) const { return attn::ch06::add_positions(embed(tokens)); }
    attn::ch08::IncrementalDecoder<double> incremental(const Var<double>& memory, const attn::ch03::Mask& padding) const {
        return {model.decoder, memory, padding, [this](const attn::IndexMatrix& t) { return embed_tokens(t); },
                [this](const Var<double>& h) { return output(h); }};
    }
    // The full decoder over tokens (rows, m), no cache: log-softmax scores (rows, m, vocab).
    xt::xarray<double> full_log_p(const Var<double>& memory, const attn::ch03::Mask& padding,
                                  const attn::IndexMatrix& tokens) const {
        const attn::ch07::TransformerOutput<double> full =
            attn::ch07::decode(model, {memory, {}}, embed_tokens(tokens), attn::ch03::no_mask(),
                               attn::ch03::causal_mask(tokens.shape(0), tokens.shape(1)), padding);
        return attn::log_softmax(output(full.output)).value();
    }
};

attn::IndexMatrix as_row(const std::vector<std::int64_t>& tokens) {
    return xt::adapt(tokens, {std::size_t(1), tokens.size()});
}

}  // namespace

TEST_CASE("ch08 greedy decoding through the incremental decoder equals recomputing the prefix" *
          doctest::test_suite("ch08")) {
    // Two sentences, the second with padded source positions; at every step each row's
    // scores equal the full decoder's over the prefix so far, so the tokens are the same.
    const TinyTranslator tiny;
    const Var<double> memory = attn::ch07::encode(tiny.model, attn::constant<double>(support::random_array(
                                                                  {batch, source_len, TinyTranslator::d}, 46)),
                                                  memory_padding()).memory;
    attn::ch08::IncrementalDecoder<double> incremental = tiny.incremental(memory, memory_padding());
    attn::IndexMatrix fed = attn::IndexMatrix::from_shape({batch, 0});
    double largest_difference = 0;
    const attn::ch01::DecodeStep<double> step = [&](const attn::IndexVector& previous) {
        const Var<double> logits = incremental.step(previous);   // (batch, vocab)
        // Grown into a new container, never `fed = concatenate(fed, ...)`: from xtensor 0.26
        // on, that assignment resizes `fed` before the concatenation reads it (common/README.md).
        const attn::IndexMatrix grown = xt::concatenate(xt::xtuple(fed, xt::view(previous, xt::all(), xt::newaxis())), 1);
        fed = grown;
        const xt::xarray<double> full = tiny.full_log_p(memory, memory_padding(), fed);
        const xt::xarray<double> cached = attn::log_softmax(logits).value();
        for (std::size_t b = 0; b < batch; ++b)
            for (std::size_t v = 0; v < TinyTranslator::vocab; ++v)
                largest_difference = std::max(largest_difference, std::abs(cached(b, v) - full(b, fed.shape(1) - 1, v)));
        return logits;
    };
    const std::vector<std::vector<std::int64_t>> tokens =
        attn::ch01::greedy_decode<double>(step, batch, 5, TinyTranslator::bos, TinyTranslator::eos);
    REQUIRE(tokens.size() == batch);
    CHECK(incremental.length() >= 2);
    CHECK(largest_difference < 1e-10);
}

TEST_CASE("ch08 beam search through the incremental decoder, its cache reordered by parents" *
          doctest::test_suite("ch08")) {
    // At every step, every row's scores must be those of the full decoder run over that
    // row's own prefix (tracked here through the same parents), and the beam's total for its
    // best sentence that sentence's log-probability under the full decoder.
    const TinyTranslator tiny;
    const Var<double> memory =
        attn::ch07::encode(tiny.model, attn::constant<double>(support::random_array({1, source_len, TinyTranslator::d}, 45)))
            .memory;
    for (std::size_t beam_size : {1, 3}) {
        CAPTURE(beam_size);
        attn::ch08::IncrementalDecoder<double> incremental = tiny.incremental(memory, attn::ch03::no_mask());
        std::vector<std::vector<std::int64_t>> prefixes = {{}};   // each row's tokens, <bos> first
        double largest_difference = 0;
        const attn::ch08::BeamStep<double> step = [&](const attn::IndexVector& previous,
                                                       const std::vector<std::size_t>& parents) {
            const Var<double> logits = incremental.step(previous, parents);   // (rows, vocab)
            const xt::xarray<double> cached = attn::log_softmax(logits).value();
            std::vector<std::vector<std::int64_t>> next;
            for (std::size_t i = 0; i < previous.size(); ++i) {
                next.push_back(prefixes.at(parents[i]));
                next.back().push_back(previous(i));
                const xt::xarray<double> full = tiny.full_log_p(memory, attn::ch03::no_mask(), as_row(next.back()));
                for (std::size_t v = 0; v < TinyTranslator::vocab; ++v)
                    largest_difference =
                        std::max(largest_difference, std::abs(cached(i, v) - full(0, next.back().size() - 1, v)));
            }
            prefixes = next;
            return logits;
        };
        const attn::ch08::Hypothesis best =
            attn::ch08::beam_search<double>(step, beam_size, 6, TinyTranslator::bos, TinyTranslator::eos);
        REQUIRE(!best.tokens.empty());
        CHECK(largest_difference < 1e-10);

        std::vector<std::int64_t> inputs = {TinyTranslator::bos};   // <bos> + the sentence, teacher-forced
        inputs.insert(inputs.end(), best.tokens.begin(), best.tokens.end() - 1);
        const xt::xarray<double> log_p = tiny.full_log_p(memory, attn::ch03::no_mask(), as_row(inputs));
        double expected = 0;
        for (std::size_t t = 0; t < inputs.size(); ++t) expected += log_p(0, t, best.tokens[t]);
        CHECK(best.log_probability == doctest::Approx(expected).epsilon(1e-10));
    }
}

TEST_CASE("ch08 a grouped decoder steps through a cache of G key/value heads" * doctest::test_suite("ch08")) {
    // Decoders whose attentions have H = 4 query heads sharing G = 2 or G = 1 key/value heads
    // (08.4), every parameter random; the same stepping as chapter 07's decoder above.
    attn::Rng rng(33);
    attn::ch07::TransformerSizes four_heads = sizes(NormPlacement::pre);
    four_heads.heads = 4;
    const Var<double> memory = attn::constant<double>(support::random_array({batch, source_len, 8}, 47));
    const Var<double> y = attn::constant<double>(support::random_array({batch, target_len, 8}, 48));
    const attn::ch03::Mask padding = memory_padding(), causal = attn::ch03::causal_mask(batch, target_len);

    PROPERTY("step t of the whole grouped decoder is row t of grouped_decode, its cache (batch * G, t, d_h)") {
        for (std::size_t G : {2, 1}) {
            CAPTURE(G);
            attn::ch08::GroupedDecoder<double> decoder(four_heads, G, rng);
            randomize(decoder, 800 + 100 * G);
            const attn::ch07::TransformerOutput<double> full =
                attn::ch08::grouped_decode(decoder, {memory, {}}, y, attn::ch03::no_mask(), causal, padding);
            attn::ch08::DecoderCache<double> cache = attn::ch08::start_cache(decoder, memory, padding);
            for (std::size_t t = 0; t < target_len; ++t) {
                INFO("position " << t);
                const attn::ch08::DecoderStep<double> step = attn::ch08::decoder_stack_step(decoder, at(y, t), cache);
                CHECK_ALLCLOSE(step.output.value(), at(full.output, t).value(), same_rtol, same_atol);
                for (std::size_t l = 0; l < step.cross_weights.size(); ++l)
                    CHECK_ALLCLOSE(step.cross_weights[l].value(), at(full.cross_weights[l], t, 2).value(), same_rtol, same_atol);
                for (const attn::ch08::LayerCache<double>& layer : step.cache.layers) {
                    CHECK(layer.self_keys.shape() == attn::Shape{batch * G, t + 1, 2});
                    CHECK(layer.memory_values.shape() == attn::Shape{batch * G, source_len, 2});
                }
                cache = step.cache;
            }
        }
    };
    PROPERTY("attention over keys and values projected from y is 08.4's grouped_query_attention(x, y, y)") {
        for (std::size_t G : {2, 1}) {
            CAPTURE(G);
            attn::ch08::GroupedQueryAttention<double> layer(8, 4, G, rng);
            randomize(layer, 1000 + G);
            const Var<double> x = attn::constant<double>(support::random_array({batch, 3, 8}, 49));
            check_attention_over_cache(layer, x, memory, padding,
                                       attn::ch08::grouped_query_attention(layer, x, memory, memory, padding));
        }
    };
    PROPERTY("a reordered grouped cache continues its parents' sentences: rows {1, 1, 0}") {
        attn::ch08::GroupedDecoder<double> decoder(four_heads, 2, rng);
        randomize(decoder, 1100);
        const std::vector<std::size_t> parents = {1, 1, 0};
        attn::ch08::DecoderCache<double> cache = attn::ch08::start_cache(decoder, memory, padding);
        for (std::size_t t = 0; t < 2; ++t) cache = attn::ch08::decoder_stack_step(decoder, at(y, t), cache).cache;
        const attn::ch08::DecoderStep<double> step =
            attn::ch08::decoder_stack_step(decoder, at(pick(y, parents), 2), attn::ch08::reorder(cache, parents));
        attn::ch03::Mask picked_padding = xt::zeros<bool>({parents.size(), source_len});
        for (std::size_t i = 0; i < parents.size(); ++i)
            for (std::size_t j = 0; j < source_len; ++j) picked_padding(i, j) = padding(parents[i], j);
        const attn::ch07::TransformerOutput<double> full =
            attn::ch08::grouped_decode(decoder, {pick(memory, parents), {}}, pick(y, parents), attn::ch03::no_mask(),
                                       attn::ch03::causal_mask(parents.size(), target_len), picked_padding);
        CHECK_ALLCLOSE(step.output.value(), at(full.output, 2).value(), same_rtol, same_atol);
    };
    PROPERTY("the grouped translation model's cached greedy step gives its recomputing step's logits") {
        attn::ch07::TranslationSizes model_sizes;
        model_sizes.source_vocab = 9;
        model_sizes.target_vocab = 7;
        model_sizes.transformer = four_heads;
        const attn::IndexMatrix source = {{3, 4, 5, 6, 7}, {8, 3, 2, 0, 0}};
        const attn::IndexVector source_lens = {5, 3};
        for (std::size_t G : {2, 1}) {
            CAPTURE(G);
            attn::ch08::GroupedQueryTranslation<double> model(model_sizes, G, rng);
            randomize(model, 1200 + 100 * G);
            model.eval();
            const attn::ch01::DecodeStep<double> cached = model.decoder(source, source_lens);
            const attn::ch01::DecodeStep<double> recomputing = model.recomputing_decoder(source, source_lens);
            for (const std::int64_t token : {1, 4, 2, 6, 3}) {
                INFO("after token " << token);
                const attn::IndexVector previous = {token, (token + 2) % 7};
                CHECK_ALLCLOSE(cached(previous).value(), recomputing(previous).value(), same_rtol, same_atol);
            }
        }
    };
}
