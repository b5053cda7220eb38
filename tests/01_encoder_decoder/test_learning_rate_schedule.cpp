// The shared training loop's learning-rate schedules, against values worked out by hand: the
// cosine of chapters 01-03 and the Transformer's warm-up then inverse square root (chapter 07).
#include "chapters/01_encoder_decoder/training.hpp"

#include <doctest/doctest.h>

using attn::ch01::learning_rate_at;
using attn::ch01::TrainConfig;

TEST_CASE("ch01 schedule: the cosine starts at lr, ends at lr * fraction, and is halfway at mid-run" *
          doctest::test_suite("ch01.golden")) {
    TrainConfig config;
    config.steps = 101;
    config.lr = 0.01;
    config.final_lr_fraction = 0.1;   // ends at 0.001
    CHECK(learning_rate_at(config, 1) == doctest::Approx(0.01));
    CHECK(learning_rate_at(config, 51) == doctest::Approx(0.0055));   // cos(pi/2) = 0: the mean of 0.01 and 0.001
    CHECK(learning_rate_at(config, 101) == doctest::Approx(0.001));
    config.final_lr_fraction = 1;     // constant
    CHECK(learning_rate_at(config, 37) == doctest::Approx(0.01));
}

TEST_CASE("ch01 schedule: warm-up rises linearly to the peak, then falls as 1/sqrt(step)" *
          doctest::test_suite("ch01.golden")) {
    TrainConfig config;
    config.steps = 5000;
    config.lr = 2e-3;
    config.warmup = 200;
    config.final_lr_fraction = 0.01;   // ignored by this schedule
    SUBCASE("the rise: step / warmup of the peak") {
        CHECK(learning_rate_at(config, 1) == doctest::Approx(1e-5));     // 2e-3 / 200
        CHECK(learning_rate_at(config, 50) == doctest::Approx(5e-4));    // a quarter of the way
        CHECK(learning_rate_at(config, 100) == doctest::Approx(1e-3));   // halfway
    }
    SUBCASE("the peak is reached at the last warm-up step") {
        CHECK(learning_rate_at(config, 200) == doctest::Approx(2e-3));
        CHECK(learning_rate_at(config, 199) < learning_rate_at(config, 200));
        CHECK(learning_rate_at(config, 201) < learning_rate_at(config, 200));
    }
    SUBCASE("the decay: four times the steps, half the rate") {
        CHECK(learning_rate_at(config, 800) == doctest::Approx(1e-3));    // 2e-3 * sqrt(200 / 800)
        CHECK(learning_rate_at(config, 3200) == doctest::Approx(5e-4));   // 2e-3 * sqrt(200 / 3200)
    }
    SUBCASE("the number of steps does not change it (no dependence on the run's length)") {
        TrainConfig shorter = config;
        shorter.steps = 900;
        CHECK(learning_rate_at(shorter, 800) == doctest::Approx(learning_rate_at(config, 800)));
    }
}
