// Self-checks for exercise 08.5: cached_decoder_step (exercises/08_attention_at_scale/cached_decoder_step.cpp).
#include "chapters/08_attention_at_scale/cached_decoder_step.hpp"
#include "chapters/03_queries_keys_values/causal_mask.hpp"
#include "chapters/07_transformer/decoder_layer.hpp"
#include "chapters/08_attention_at_scale/grouped_decoder_layer.hpp"
#include "tests/08_attention_at_scale/kv_cache_fixture.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/property.hpp"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using attn::Var;
using attn::ch07::NormPlacement;
using namespace kv_fixture;

namespace {

// The cached path and the full forward do the same arithmetic in another order.
constexpr double same_rtol = 1e-12, same_atol = 1e-12;

struct Stepped {
    std::vector<attn::ch08::CachedLayerStep<double>> steps;   // one per position
};

// One step. Attending over the cache before appending finds no key at all at step 0, and the
// softmax then refuses its empty last axis: that error is given the mistake's name.
template <class DecoderLayer>
attn::ch08::CachedLayerStep<double> one_step(const DecoderLayer& layer, const Var<double>& y_t,
                                             const attn::ch08::LayerCache<double>& cache, const attn::ch03::Mask& padding) {
    try {
        return attn::ch08::cached_decoder_step(layer, y_t, cache, padding);
    } catch (const std::invalid_argument& e) {
        const bool empty_cache = cache.self_keys.shape(1) == 0;
        if (!empty_cache || std::string(e.what()).find("non-empty last axis") == std::string::npos) throw;
        throw std::invalid_argument(
            "at step 0 the cache is empty: append the new key and value before attending (8.15) [" +
            std::string(e.what()) + "]");
    }
}

// Positions 0, 1, ... of y through one layer (chapter 07's or a grouped one), each step
// starting from the previous one's cache.
template <class DecoderLayer>
Stepped step_through(const DecoderLayer& layer, const Var<double>& y, const Var<double>& memory,
                     const attn::ch03::Mask& padding) {
    Stepped out;
    attn::ch08::LayerCache<double> cache = attn::ch08::start_layer_cache(layer, memory);
    for (std::size_t t = 0; t < y.shape(1); ++t) {
        out.steps.push_back(one_step(layer, at(y, t), cache, padding));
        cache = out.steps.back().cache;
    }
    return out;
}

// Four query heads of size 2, so that G = 2 and G = 1 both share.
attn::ch07::TransformerSizes four_heads(NormPlacement norm) {
    attn::ch07::TransformerSizes s = sizes(norm);
    s.heads = 4;
    return s;
}

}  // namespace

TEST_CASE("08.5 cached_decoder_step" * doctest::test_suite("ch08")) {
    // One layer per norm placement, every parameter random; two sentences, the second with
    // two padded source positions.
    attn::Rng rng(17);
    const Var<double> memory = attn::constant<double>(support::random_array({batch, source_len, 8}, 21));
    const Var<double> y = attn::constant<double>(support::random_array({batch, target_len, 8}, 22));
    const attn::ch03::Mask padding = memory_padding(), causal = attn::ch03::causal_mask(batch, target_len);
    attn::ch07::TransformerDecoderLayer<double> post(sizes(NormPlacement::post), rng), pre(sizes(NormPlacement::pre), rng);
    randomize(post, 100);
    randomize(pre, 200);
    const std::vector<const attn::ch07::TransformerDecoderLayer<double>*> layers = {&post, &pre};
    const auto name = [](const attn::ch07::TransformerDecoderLayer<double>* layer) {
        return std::string(layer->norm_placement == NormPlacement::post ? "post-norm" : "pre-norm");
    };
    const auto full = [&](const attn::ch07::TransformerDecoderLayer<double>* layer) {
        return attn::ch07::decoder_layer(*layer, y, memory, attn::ch03::no_mask(), causal, padding);
    };

    PROPERTY("step t's output is row t of decoder_layer with a causal mask, post- and pre-norm, with padding") {
        for (const auto* layer : layers) {
            const attn::ch07::DecoderLayerOutput<double> expected = full(layer);
            const Stepped stepped = step_through(*layer, y, memory, padding);
            for (std::size_t t = 0; t < target_len; ++t) {
                INFO(name(layer) << ", position " << t);
                CHECK_ALLCLOSE(stepped.steps[t].output.value(), at(expected.output, t).value(), same_rtol, same_atol);
            }
        }
    };
    PROPERTY("step t's cross-attention weights are row t of the full forward's (zero on padding)") {
        for (const auto* layer : layers) {
            const attn::ch07::DecoderLayerOutput<double> expected = full(layer);
            const Stepped stepped = step_through(*layer, y, memory, padding);
            for (std::size_t t = 0; t < target_len; ++t) {
                INFO(name(layer) << ", position " << t);
                CHECK_ALLCLOSE(stepped.steps[t].cross_weights.value(), at(expected.cross_weights, t, 2).value(), same_rtol,
                               same_atol);
            }
        }
    };
    PROPERTY("the cache grows by one position per step; the memory's keys and values stay as they were") {
        for (const auto* layer : layers) {
            const attn::ch08::LayerCache<double> start = attn::ch08::start_layer_cache(*layer, memory);
            const Stepped stepped = step_through(*layer, y, memory, padding);
            for (std::size_t t = 0; t < target_len; ++t) {
                INFO(name(layer) << ", position " << t);
                const attn::ch08::LayerCache<double>& cache = stepped.steps[t].cache;
                CHECK(cache.self_keys.shape(1) == t + 1);
                CHECK(cache.self_values.shape(1) == t + 1);
                CHECK_ALLCLOSE(cache.memory_keys.value(), start.memory_keys.value(), 0.0, 0.0);
                CHECK_ALLCLOSE(cache.memory_values.value(), start.memory_values.value(), 0.0, 0.0);
            }
        }
    };
    PROPERTY("after the last step the cache holds every position's self-attention key and value") {
        // The self-attention reads y (post-norm) or norm1(y) (pre-norm); its keys and values,
        // projected from all positions at once, are what the steps appended one by one.
        using attn::ch08::Projection;
        for (const auto* layer : layers) {
            INFO(name(layer));
            const Var<double> x = layer->norm_placement == NormPlacement::post ? y : layer->norm1(y);
            const Stepped stepped = step_through(*layer, y, memory, padding);
            const attn::ch08::LayerCache<double>& cache = stepped.steps.back().cache;
            CHECK_ALLCLOSE(cache.self_keys.value(), project_heads(layer->self_attn, x, Projection::key).value(), same_rtol,
                           same_atol);
            CHECK_ALLCLOSE(cache.self_values.value(), project_heads(layer->self_attn, x, Projection::value).value(),
                           same_rtol, same_atol);
        }
    };
    PROPERTY("a fresh cache starts a new sentence: stepping the same sentences again gives the same rows") {
        for (const auto* layer : layers) {
            const Stepped first = step_through(*layer, y, memory, padding);
            const Stepped again = step_through(*layer, y, memory, padding);
            for (std::size_t t = 0; t < target_len; ++t) {
                INFO(name(layer) << ", position " << t);
                CHECK_ALLCLOSE(again.steps[t].output.value(), first.steps[t].output.value(), 0.0, 0.0);
                CHECK(again.steps[t].cache.self_keys.shape(1) == t + 1);
            }
        }
    };
}

TEST_CASE("08.5 cached_decoder_step with fewer key/value heads" * doctest::test_suite("ch08")) {
    // Grouped decoder layers (08.4's attention in both places), H = 4 query heads sharing
    // G = 2 or G = 1 key/value heads, every parameter random, post- and pre-norm.
    attn::Rng rng(19);
    const Var<double> memory = attn::constant<double>(support::random_array({batch, source_len, 8}, 23));
    const Var<double> y = attn::constant<double>(support::random_array({batch, target_len, 8}, 24));
    const attn::ch03::Mask padding = memory_padding(), causal = attn::ch03::causal_mask(batch, target_len);
    std::vector<std::unique_ptr<attn::ch08::GroupedDecoderLayer<double>>> layers;
    std::uint64_t seed = 500;
    for (NormPlacement norm : {NormPlacement::post, NormPlacement::pre})
        for (std::size_t G : {2, 1}) {
            layers.push_back(std::make_unique<attn::ch08::GroupedDecoderLayer<double>>(four_heads(norm), G, rng));
            randomize(*layers.back(), seed += 100);
        }
    const auto name = [](const attn::ch08::GroupedDecoderLayer<double>& layer) {
        return std::string(layer.norm_placement == NormPlacement::post ? "post-norm" : "pre-norm") + ", G = " +
               std::to_string(layer.self_attn.kv_heads()) + " of H = 4";
    };

    PROPERTY("step t's output and cross-attention weights are row t of grouped_decoder_layer with a causal mask") {
        for (const auto& layer : layers) {
            const attn::ch07::DecoderLayerOutput<double> expected =
                attn::ch08::grouped_decoder_layer(*layer, y, memory, attn::ch03::no_mask(), causal, padding);
            const Stepped stepped = step_through(*layer, y, memory, padding);
            for (std::size_t t = 0; t < target_len; ++t) {
                INFO(name(*layer) << ", position " << t);
                CHECK_ALLCLOSE(stepped.steps[t].output.value(), at(expected.output, t).value(), same_rtol, same_atol);
                CHECK_ALLCLOSE(stepped.steps[t].cross_weights.value(), at(expected.cross_weights, t, 2).value(), same_rtol,
                               same_atol);
            }
        }
    };
    PROPERTY("the cache keeps G key/value heads per sentence, (batch * G, t, d_h), not one per query head") {
        for (const auto& layer : layers) {
            INFO(name(*layer));
            const Stepped stepped = step_through(*layer, y, memory, padding);
            const attn::ch08::LayerCache<double>& cache = stepped.steps.back().cache;
            const std::size_t G = layer->self_attn.kv_heads();
            CHECK(cache.self_keys.shape(0) == batch * G);
            CHECK(cache.self_values.shape(0) == batch * G);
            CHECK(cache.self_keys.shape(1) == target_len);
            CHECK(cache.self_values.shape(2) == 2);
        }
    };
}
