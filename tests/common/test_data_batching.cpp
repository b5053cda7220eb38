// Batches: padding and valid lengths, teacher forcing, shuffled batch orders, length buckets.
#include "common/data/batching.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>

using namespace attn::data;
using attn::IndexMatrix;
using attn::IndexVector;
using Tokens = std::vector<std::string>;

namespace {

std::vector<Pair> three_pairs() {
    return {Pair{{"a", "b", "c"}, {"x"}}, Pair{{"a"}, {"x", "y", "z"}}, Pair{{"c", "b"}, {"y", "y"}}};
}

}  // namespace

TEST_CASE("data: make_batch pads to the longest row and records valid lengths" * doctest::test_suite("common")) {
    const std::vector<Pair> pairs = three_pairs();
    const Vocab src = Vocab::build(source_sentences(pairs), 1);   // a 4, b 5, c 6
    const Vocab tgt = Vocab::build(target_sentences(pairs), 1);   // y 4, x 5, z 6
    const Batch batch = make_batch(pairs, {0, 1}, src, tgt);
    REQUIRE(batch.source.shape(0) == 2);
    REQUIRE(batch.source.shape(1) == 3);       // longest source: 3 tokens
    REQUIRE(batch.target_in.shape(1) == 4);    // longest target 3, plus <bos>
    REQUIRE(batch.target_out.shape(1) == 4);   // longest target 3, plus <eos>

    SUBCASE("rows hold the ids in order and <pad> after the valid length") {
        const IndexMatrix expected_source = {{4, 5, 6}, {4, pad_id, pad_id}};
        CHECK(batch.source == expected_source);
        CHECK(batch.source_lens == IndexVector{3, 1});
    }
    SUBCASE("target_in is <bos> + target and target_out is target + <eos>") {
        const IndexMatrix expected_in = {{bos_id, 5, pad_id, pad_id}, {bos_id, 5, 4, 6}};
        const IndexMatrix expected_out = {{5, eos_id, pad_id, pad_id}, {5, 4, 6, eos_id}};
        CHECK(batch.target_in == expected_in);
        CHECK(batch.target_out == expected_out);
        CHECK(batch.target_lens == IndexVector{2, 4});
    }
    SUBCASE("the rows follow the order of the indices") {
        const Batch reversed = make_batch(pairs, {2, 0}, src, tgt);
        CHECK(reversed.source_lens == IndexVector{2, 3});
        CHECK(reversed.source(0, 0) == 6);
    }
    SUBCASE("bad indices are errors") {
        CHECK_THROWS_AS(make_batch(pairs, {}, src, tgt), std::invalid_argument);
        CHECK_THROWS_AS(make_batch(pairs, {0, 3}, src, tgt), std::invalid_argument);
    }
}

TEST_CASE("data: shuffled_batches covers every example once per epoch" * doctest::test_suite("common")) {
    attn::Rng rng(5);
    const std::vector<std::vector<std::size_t>> epoch1 = shuffled_batches(10, 4, rng);
    const std::vector<std::vector<std::size_t>> epoch2 = shuffled_batches(10, 4, rng);
    SUBCASE("batches of 4, 4 and the last 2 are kept") {
        REQUIRE(epoch1.size() == 3);
        CHECK(epoch1[0].size() == 4);
        CHECK(epoch1[2].size() == 2);
        std::vector<std::size_t> all;
        for (const std::vector<std::size_t>& batch : epoch1) all.insert(all.end(), batch.begin(), batch.end());
        std::sort(all.begin(), all.end());
        CHECK(all == std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
    }
    SUBCASE("each epoch has a new order, and the same seed repeats it") {
        CHECK(epoch1 != epoch2);
        attn::Rng again(5);
        CHECK(shuffled_batches(10, 4, again) == epoch1);
    }
    SUBCASE("drop_last keeps only full batches") {
        attn::Rng other(5);
        const std::vector<std::vector<std::size_t>> full = shuffled_batches(10, 4, other, true);
        REQUIRE(full.size() == 2);
        CHECK(full[1].size() == 4);
        CHECK(shuffled_batches(8, 4, other, true).size() == 2);   // nothing partial to drop
    }
    SUBCASE("ordered_batches cuts 0..n-1 in order") {
        CHECK(ordered_batches(5, 2) == std::vector<std::vector<std::size_t>>{{0, 1}, {2, 3}, {4}});
        CHECK_THROWS_AS(ordered_batches(5, 0), std::invalid_argument);
    }
}

TEST_CASE("data: bucket_by_source_length uses inclusive upper edges" * doctest::test_suite("common")) {
    std::vector<Pair> pairs;
    for (std::size_t length : {1, 10, 11, 20, 21, 45, 3}) pairs.push_back(Pair{Tokens(length, "w"), {"t"}});
    SUBCASE("1-10, 11-20, 21-30, 31-40 and an extra bucket for longer sources") {
        const std::vector<Bucket> buckets = bucket_by_source_length(pairs, {10, 20, 30, 40});
        REQUIRE(buckets.size() == 5);
        std::vector<std::string> labels;
        std::vector<std::size_t> sizes;
        for (const Bucket& b : buckets) {
            labels.push_back(b.label());
            sizes.push_back(b.pairs.size());
        }
        CHECK(labels == std::vector<std::string>{"1-10", "11-20", "21-30", "31-40", "41-45"});
        CHECK(sizes == std::vector<std::size_t>{3, 2, 1, 0, 1});   // lengths 1, 10, 3 | 11, 20 | 21 | - | 45
        CHECK(buckets[0].pairs[2].source.size() == 3);             // order within a bucket kept
    }
    SUBCASE("no extra bucket when every source fits; one-length buckets get a plain label") {
        const std::vector<Bucket> buckets = bucket_by_source_length(pairs, {1, 50});
        REQUIRE(buckets.size() == 2);
        CHECK(buckets[0].label() == "1");
        CHECK(buckets[1].label() == "2-50");
        CHECK(buckets[1].pairs.size() == 6);
    }
    SUBCASE("edges must be positive and increase") {
        CHECK_THROWS_AS(bucket_by_source_length(pairs, {}), std::invalid_argument);
        CHECK_THROWS_AS(bucket_by_source_length(pairs, {10, 10}), std::invalid_argument);
        CHECK_THROWS_AS(bucket_by_source_length(pairs, {0, 10}), std::invalid_argument);
    }
}

TEST_CASE("data: length-grouped batches hold similar lengths and every example at most once" * doctest::test_suite("common")) {
    std::vector<attn::data::Pair> pairs;
    attn::Rng make(5);
    for (std::size_t i = 0; i < 1000; ++i) pairs.push_back({std::vector<std::string>(1 + make.below(40), "w"), {"x"}});
    attn::Rng rng(6);
    const std::vector<std::vector<std::size_t>> batches = attn::data::length_grouped_batches(pairs, 10, rng, 20);
    CHECK(batches.size() == 100);   // 1000 examples, pools of 200, batches of 10: nothing left over
    std::vector<int> seen(pairs.size(), 0);
    double spread = 0;
    for (const std::vector<std::size_t>& batch : batches) {
        CHECK(batch.size() == 10);
        std::size_t shortest = 100, longest = 0;
        for (const std::size_t i : batch) {
            ++seen[i];
            shortest = std::min(shortest, pairs[i].source.size());
            longest = std::max(longest, pairs[i].source.size());
        }
        spread += static_cast<double>(longest - shortest);
    }
    CHECK(std::count(seen.begin(), seen.end(), 1) == 1000);
    // Random batches of 10 lengths from 1..40 would span about 30; sorted pools of 200, about 2.
    CHECK(spread / static_cast<double>(batches.size()) < 5.0);
    attn::Rng again(6);
    CHECK(attn::data::length_grouped_batches(pairs, 10, again, 20) == batches);   // deterministic for a seed
}

TEST_CASE("data: fewer pairs than a batch still make one smaller batch" * doctest::test_suite("common")) {
    const std::vector<attn::data::Pair> pairs = {{{"a", "b", "c"}, {"x"}}, {{"a"}, {"x"}}, {{"a", "b"}, {"x"}}};
    attn::Rng rng(1);
    const std::vector<std::vector<std::size_t>> batches = attn::data::length_grouped_batches(pairs, 64, rng);
    REQUIRE(batches.size() == 1);
    CHECK(batches[0] == std::vector<std::size_t>{1, 2, 0});   // every pair, by source length
    CHECK(attn::data::length_grouped_batches({}, 64, rng).empty());
}

TEST_CASE("data: quantile_edges cuts lengths into buckets of similar counts" * doctest::test_suite("common")) {
    using Edges = std::vector<std::size_t>;
    CHECK(attn::data::quantile_edges({9, 1, 2, 8, 2, 3, 5, 9}, 4) == Edges{2, 3, 8, 9});   // ceil(k 8 / 4)-th smallest
    CHECK(attn::data::quantile_edges({4, 4, 4, 4, 5}, 4) == Edges{4, 5});                // repeated edges merge
    CHECK(attn::data::quantile_edges({7}, 4) == Edges{7});
    std::vector<std::size_t> short_sentences;   // like real corpora: most sources 3 to 8 tokens
    for (std::size_t i = 0; i < 100; ++i) short_sentences.push_back(3 + i % 6);
    const Edges edges = attn::data::quantile_edges(short_sentences, 4);
    CHECK(edges == Edges{4, 5, 7, 8});
    CHECK_THROWS_AS(attn::data::quantile_edges({}, 4), std::invalid_argument);
    CHECK_THROWS_AS(attn::data::quantile_edges({3}, 0), std::invalid_argument);
}
