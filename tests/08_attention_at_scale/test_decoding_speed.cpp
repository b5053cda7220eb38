// Part 6's measurement (decoding_speed.cpp): generation through the key/value cache against
// chapter 07's recomputing decoder on the same model, and the tokens per second read from it.
#include "chapters/01_encoder_decoder/task.hpp"
#include "chapters/08_attention_at_scale/decoding_speed.hpp"
#include "tests/07_transformer/tiny_model.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

using namespace attn;

TEST_CASE("ch08 part 6: both decoders give the same scores, and every length is timed" * doctest::test_suite("ch08")) {
    ch01::Task task = ch01::load_task("dates", "", 7, /*quick=*/true);
    ch07::TranslationSizes sizes = ch07::testing::tiny_sizes();
    sizes.source_vocab = task.source_vocab.size();
    sizes.target_vocab = task.target_vocab.size();
    Rng rng(16);
    ch08::CachedTranslationModel<float> model(sizes, rng);
    const std::vector<data::Pair> pairs(task.corpus.test.begin(), task.corpus.test.begin() + 3);   // sources of several lengths
    const ch08::GenerationSpeed speed = ch08::measure_generation(model, task, pairs, 6, 1);
    CHECK(speed.sentences == 3);
    REQUIRE(speed.cached_seconds.size() == 6);
    REQUIRE(speed.recomputed_seconds.size() == 6);
    // float32 logits of size ~1, the same sums in another order: rounding only.
    CHECK(speed.largest_difference < 1e-5);
    for (std::size_t t = 1; t < 6; ++t) {   // times to reach each length: they add up
        CHECK(speed.cached_seconds[t] >= speed.cached_seconds[t - 1]);
        CHECK(speed.recomputed_seconds[t] >= speed.recomputed_seconds[t - 1]);
    }
    CHECK(speed.cached_seconds.front() > 0);
    CHECK_THROWS_AS(ch08::measure_generation(model, task, pairs, 0, 1), std::invalid_argument);
}

TEST_CASE("ch08 part 6: tokens per second are sentences x length / seconds" * doctest::test_suite("ch08")) {
    ch08::GenerationSpeed speed;
    speed.sentences = 4;
    speed.cached_seconds = {0.5, 1.0, 2.0};
    speed.recomputed_seconds = {0.5, 2.0, 6.0};
    // 4 sentences x 2 tokens in 1 s; x 3 tokens in 6 s
    CHECK(ch08::tokens_per_second(speed, speed.cached_seconds, 2) == doctest::Approx(8.0));
    CHECK(ch08::tokens_per_second(speed, speed.recomputed_seconds, 3) == doctest::Approx(2.0));
    const plot::LinePlot plot = ch08::generation_speed_plot(speed);
    REQUIRE(plot.series.size() == 2);
    CHECK(plot.series[0].x == std::vector<double>{1, 2, 3});
    CHECK(plot.series[1].y.back() == doctest::Approx(2.0));
}
