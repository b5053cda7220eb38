// The cache against recomputation: the same decoder outputs, at two costs.
#include "chapters/07_transformer/decoding_speed.hpp"

#include "chapters/03_queries_keys_values/causal_mask.hpp"
#include "chapters/07_transformer/kv_cache.hpp"
#include "chapters/07_transformer/transformer.hpp"
#include "common/autodiff/ops.hpp"
#include "common/random.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>

namespace attn::ch07 {
namespace {

using Clock = std::chrono::steady_clock;

Var<float> random_input(std::size_t batch, std::size_t length, std::size_t d, Rng& rng) {
    Array<float> values = rng.normal_matrix<float>(batch * length, d);   // (batch * length, d)
    values.reshape({batch, length, d});
    return constant<float>(values);
}

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

DecodingSpeed measure_decoding_speed(const TransformerSizes& sizes, std::size_t batch, std::size_t source_length,
                                     std::size_t steps, std::uint64_t seed, std::size_t repeats) {
    Rng rng(seed);
    const Transformer<float> model(sizes, rng);
    const Var<float> source = random_input(batch, source_length, sizes.d_model, rng);   // (batch, n, d)
    const Var<float> target = random_input(batch, steps, sizes.d_model, rng);           // (batch, steps, d)
    NoGradGuard no_grad;
    const EncoderOutput<float> encoded = encode(model, source);

    DecodingSpeed speed{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(), 0.0};
    for (std::size_t r = 0; r < repeats; ++r) {
        // With the cache: each step feeds one position and reads one row.               (7.5)
        std::vector<Array<float>> cached_rows;
        Clock::time_point start = Clock::now();
        DecoderCache<float> cache = start_cache(model.decoder, encoded.memory);
        for (std::size_t t = 0; t < steps; ++t) {
            DecoderStep<float> step = decoder_stack_step(model.decoder, slice(target, 1, t, t + 1), cache);
            cached_rows.push_back(step.output.value());
            cache = std::move(step.cache);
        }
        speed.cached_seconds = std::min(speed.cached_seconds, seconds_since(start));

        // Without: each step runs the decoder over the whole prefix under the causal mask.
        std::vector<Array<float>> recomputed_rows;
        start = Clock::now();
        for (std::size_t t = 0; t < steps; ++t) {
            const TransformerOutput<float> full =
                decode(model, encoded, slice(target, 1, 0, t + 1), ch03::no_mask(), ch03::causal_mask(batch, t + 1));
            recomputed_rows.push_back(slice(full.output, 1, t, t + 1).value());   // (batch, 1, d)
        }
        speed.recomputed_seconds = std::min(speed.recomputed_seconds, seconds_since(start));
        for (std::size_t t = 0; t < steps; ++t) {
            const double difference = xt::amax(xt::abs(recomputed_rows[t] - cached_rows[t]))();
            speed.largest_difference = std::max(speed.largest_difference, difference);
        }
    }
    return speed;
}

// ---- 2. Decoding with a key/value cache: the same outputs, no prefix recomputed.      (7.5)
void report_decoding_speed(const RunSettings& run) {
    const TransformerSizes sizes{};   // the lesson's: d 64, 4 heads, feed-forward 256, 2 + 2 layers
    const std::size_t batch = run.quick ? 8 : 64, source_length = run.quick ? 10 : 30, steps = run.quick ? 10 : 40;
    const DecodingSpeed speed = measure_decoding_speed(sizes, batch, source_length, steps, run.seed);
    std::printf("\n2. Decoding %zu positions of %zu sentences (source length %zu; d %zu, %zu heads, feed-forward %zu,\n"
                "   %zu + %zu layers, float), best of 3:\n"
                "     with the key/value cache        %8.1f ms\n"
                "     recomputing the prefix          %8.1f ms  (%.1fx the time)\n"
                "     largest difference of outputs  %9.2g\n",
                steps, batch, source_length, sizes.d_model, sizes.heads, sizes.feed_forward, sizes.encoder_layers,
                sizes.decoder_layers, 1e3 * speed.cached_seconds, 1e3 * speed.recomputed_seconds,
                speed.recomputed_seconds / speed.cached_seconds, speed.largest_difference);
}

}  // namespace attn::ch07
