// Part 11's variants (chapters/07_transformer/ablations.hpp): each differs from the run's model
// in exactly one choice, and the schedule without warm-up differs only before the warm-up ends.
#include "chapters/07_transformer/ablations.hpp"
#include "tests/support/property.hpp"

#include <doctest/doctest.h>

#include <cmath>

using attn::ch07::NormPlacement;
using attn::ch07::NormStatistics;

TEST_CASE("07 ablations: the variants" * doctest::test_suite("ch07")) {
    attn::ch07::TranslationSizes sizes;
    sizes.source_vocab = 30, sizes.target_vocab = 40;
    attn::ch01::TrainConfig config;
    config.steps = 1000, config.lr = 3e-3, config.warmup = 200;
    const std::vector<attn::ch07::AblationRun> variants = attn::ch07::ablation_variants(sizes, config);

    PROPERTY("pre-norm, no warm-up and batch norm, each changing one choice of the baseline (post-norm, warm-up, layer norm)") {
        REQUIRE(variants.size() == 3);
        int changed[3] = {0, 0, 0};
        for (std::size_t i = 0; i < variants.size(); ++i) {
            const attn::ch07::AblationRun& v = variants[i];
            changed[i] = (v.sizes.transformer.norm != NormPlacement::post) + (!v.config.warmup_ramp) +
                         (v.sizes.transformer.statistics != NormStatistics::layer);
            CHECK(v.config.steps == config.steps);
            CHECK(v.config.lr == config.lr);
            CHECK(v.config.seed == config.seed);
            CHECK(v.sizes.transformer.d_model == sizes.transformer.d_model);
        }
        CHECK(changed[0] == 1);
        CHECK(changed[1] == 1);
        CHECK(changed[2] == 1);
        CHECK(variants[0].sizes.transformer.norm == NormPlacement::pre);
        CHECK_FALSE(variants[1].config.warmup_ramp);
        CHECK(variants[2].sizes.transformer.statistics == NormStatistics::batch);
    };
    PROPERTY("without warm-up the rate is the peak up to step w and the baseline's 1/sqrt(step) from there") {
        const attn::ch01::TrainConfig& flat = variants[1].config;
        for (int step : {1, 50, 199, 200}) {
            CAPTURE(step);
            CHECK(attn::ch01::learning_rate_at(flat, step) == doctest::Approx(3e-3).epsilon(1e-12));
        }
        CHECK(attn::ch01::learning_rate_at(config, 1) == doctest::Approx(3e-3 / 200).epsilon(1e-12));   // the ramp's first step
        for (int step : {200, 201, 450, 1000}) {
            CAPTURE(step);
            CHECK(attn::ch01::learning_rate_at(flat, step) == doctest::Approx(attn::ch01::learning_rate_at(config, step)).epsilon(1e-12));
            CHECK(attn::ch01::learning_rate_at(flat, step) == doctest::Approx(3e-3 * std::sqrt(200.0 / step)).epsilon(1e-12));
        }
    };
}
