// The best predictions of a model with a limited reach on the counting task
// (chapters/04_self_attention/window_limit.hpp), against probabilities worked out by hand.
#include "chapters/04_self_attention/window_limit.hpp"

#include <doctest/doctest.h>

#include <cmath>

TEST_CASE("ch04 model: the best a limited reach can do on the counting task, worked by hand" * doctest::test_suite("ch04")) {
    attn::ch04::CountingTask task;
    task.length = 4;
    task.vocab = 2;
    task.classes = 4;
    const xt::xarray<std::int64_t> tokens = {{0, 0, 1, 0}};
    SUBCASE("reach 1 at position 0: one repeat seen, two positions unseen, each a 0 with probability 1/2") {
        // count = 2 + k, k ~ Binomial(2, 1/2): P(2) = 1/4, P(3) = 1/2, P(4) = 1/4
        const attn::Array<double> p = attn::ch04::window_limited_probabilities(task, 1, tokens);
        CHECK(p(0, 0, 0) == doctest::Approx(0.0));
        CHECK(p(0, 0, 1) == doctest::Approx(0.25));
        CHECK(p(0, 0, 2) == doctest::Approx(0.5));
        CHECK(p(0, 0, 3) == doctest::Approx(0.25));
    }
    SUBCASE("reach 1 at position 2: no repeat among its neighbours 1 and 3, position 0 unseen") {
        // count = 1 + k, k ~ Binomial(1, 1/2)
        const attn::Array<double> p = attn::ch04::window_limited_probabilities(task, 1, tokens);
        CHECK(p(0, 2, 0) == doctest::Approx(0.5));
        CHECK(p(0, 2, 1) == doctest::Approx(0.5));
    }
    SUBCASE("counts above the classes fall into the last class") {
        task.classes = 2;   // counts 2, 3, 4 are all class 1
        const attn::Array<double> p = attn::ch04::window_limited_probabilities(task, 1, tokens);
        CHECK(p(0, 0, 0) == doctest::Approx(0.0));
        CHECK(p(0, 0, 1) == doctest::Approx(1.0));
    }
    SUBCASE("a reach over the whole sequence knows every count: all the probability on the true class, loss 0") {
        const xt::xarray<std::int64_t> classes = {{2, 2, 0, 2}};   // token 0 three times, token 1 once
        const attn::Array<double> p = attn::ch04::window_limited_probabilities(task, 3, tokens);
        CHECK(p(0, 1, 2) == doctest::Approx(1.0));
        CHECK(attn::ch04::mean_cross_entropy(p, classes) == doctest::Approx(0.0));
        // reach 0 sees the token alone: count 1 + Binomial(3, 1/2), P(class 2) = 3/8 for the 0s, P(class 0) = 1/8 for the 1
        const attn::Array<double> blind = attn::ch04::window_limited_probabilities(task, 0, tokens);
        CHECK(attn::ch04::mean_cross_entropy(blind, classes) ==
              doctest::Approx(-(3 * std::log(3.0 / 8) + std::log(1.0 / 8)) / 4));
    }
}
