// Chapter 04's model code: the counting task's labels, and a learning test (a fixed seed and
// thresholds): with the same small budget, self-attention counts tokens whose other
// occurrences lie beyond the convolutions' reach, and the convolution stack cannot.
#include "chapters/04_self_attention/counting.hpp"

#include <doctest/doctest.h>

using namespace attn::ch04;

TEST_CASE("ch04 model: counting labels and farthest distances, worked by hand" * doctest::test_suite("ch04")) {
    const CountingTask task{6, 4, 3};
    xt::xarray<std::int64_t> tokens = {{2, 0, 2, 1, 2, 2}};
    const CountingBatch batch = label_counting_batch(task, tokens);
    // token 2 occurs 4 times (capped at class 3 -> index 2), 0 and 1 once
    const xt::xarray<std::int64_t> classes = {{2, 0, 2, 0, 2, 2}};
    // position 0's farthest 2 is at 5; position 2's at 5 (3 away) and 0 (2 away); unique ones 0
    const xt::xarray<std::int64_t> farthest = {{5, 0, 3, 0, 4, 5}};
    CHECK(batch.classes == classes);
    CHECK(batch.farthest == farthest);
    CHECK(bucket_of(0) == 0);
    CHECK(bucket_of(1) == 1);
    CHECK(bucket_of(3) == 1);
    CHECK(bucket_of(4) == 2);
    CHECK(bucket_of(7) == 2);
    CHECK(bucket_of(8) == 3);
    CHECK(bucket_of(31) == 4);
    CHECK(bucket_names(32) == std::vector<std::string>{"0 (unique)", "1-3", "4-7", "8-15", "16-31"});
    CHECK_THROWS_AS(label_counting_batch(task, xt::xarray<std::int64_t>{{1, 2}}), std::invalid_argument);
}
