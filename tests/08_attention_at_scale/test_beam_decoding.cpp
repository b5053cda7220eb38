// Chapter 07's translation model decoding through the cache (cached_translation.hpp), and part
// 7's pieces: the cached greedy step against chapter 07's recomputing one, the beam step (each
// hypothesis's total is its log-probability under teacher forcing; beam 1 is greedy decoding),
// and the count of sentences where beam search scores below, equal to or above greedy.
#include "chapters/01_encoder_decoder/greedy_decode.hpp"
#include "chapters/01_encoder_decoder/task.hpp"
#include "chapters/08_attention_at_scale/beam_decoding.hpp"
#include "chapters/08_attention_at_scale/cached_translation.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/07_transformer/tiny_model.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace attn;
using attn::ch08::CachedTranslationModel;
using attn::ch08::Hypothesis;

namespace {

using attn::ch07::testing::tiny_sizes;

// log p(tokens | source) by teacher forcing: the whole target in one forward pass.
double teacher_forced_log_probability(CachedTranslationModel<double>& model, const IndexMatrix& source,
                                      const std::vector<std::int64_t>& tokens) {
    const std::size_t m = tokens.size();
    data::Batch batch;
    batch.source = source;
    batch.source_lens = IndexVector{static_cast<std::int64_t>(source.shape(1))};
    batch.target_in = IndexMatrix::from_shape({1, m});
    batch.target_out = IndexMatrix::from_shape({1, m});
    batch.target_lens = IndexVector{static_cast<std::int64_t>(m)};
    for (std::size_t t = 0; t < m; ++t) {
        batch.target_in(0, t) = t == 0 ? data::bos_id : tokens[t - 1];
        batch.target_out(0, t) = tokens[t];
    }
    const Array<double> log_p = log_softmax(model.forward(batch)).value();   // (1, m, vocab)
    double total = 0;
    for (std::size_t t = 0; t < m; ++t) total += log_p(0, t, tokens[t]);
    return total;
}

Hypothesis hypothesis(std::vector<std::int64_t> tokens, double log_probability) {
    Hypothesis h;
    h.tokens = std::move(tokens);
    h.log_probability = log_probability;
    return h;
}

}  // namespace

TEST_CASE("ch08 model: each cached greedy step scores as chapter 07's recomputing step does" *
          doctest::test_suite("ch08")) {
    // Two sentences, the second padded; both decoders fed the same tokens, the first
    // sentence's past its <eos> too: five steps, every score the same but for rounding.
    const NoGradGuard no_grad;
    Rng rng(15);
    CachedTranslationModel<double> model(tiny_sizes(), rng);
    model.eval();
    const IndexMatrix source{{4, 5, 6, 7}, {8, 4, 0, 0}};
    const IndexVector source_lens{4, 2};
    const ch01::DecodeStep<double> cached = model.decoder(source, source_lens);
    const ch01::DecodeStep<double> recomputed = model.recomputing_decoder(source, source_lens);
    const std::vector<IndexVector> fed = {{data::bos_id, data::bos_id}, {4, 5}, {data::eos_id, 6}, {7, 7}, {5, 4}};
    for (std::size_t t = 0; t < fed.size(); ++t) {
        CAPTURE(t);
        const Array<double> with_cache = cached(fed[t]).value(), without = recomputed(fed[t]).value();   // (2, 8)
        REQUIRE(with_cache.shape() == without.shape());
        CHECK(xt::amax(xt::abs(with_cache - without))() < 1e-12);
    }
}

TEST_CASE("ch08 model: beam search through the model's beam step scores what teacher forcing scores" *
          doctest::test_suite("ch08")) {
    const NoGradGuard no_grad;
    const IndexMatrix source{{4, 5, 6, 7}};
    const IndexVector source_lens{4};
    for (std::uint64_t seed : {11, 12, 13}) {
        CAPTURE(seed);
        Rng rng(seed);
        CachedTranslationModel<double> model(tiny_sizes(), rng);
        model.eval();
        for (std::size_t beam_size : {1, 3}) {
            CAPTURE(beam_size);
            const Hypothesis found = ch08::beam_search<double>(model.beam_decoder(source, source_lens), beam_size, 6,
                                                               data::bos_id, data::eos_id);
            REQUIRE(!found.tokens.empty());
            CHECK(found.log_probability == doctest::Approx(teacher_forced_log_probability(model, source, found.tokens))
                                               .epsilon(1e-9));
        }
        // Beam 1 is greedy decoding: the same tokens as chapter 01's loop over the model's decoder.
        std::vector<std::int64_t> beam_one =
            ch08::beam_search<double>(model.beam_decoder(source, source_lens), 1, 6, data::bos_id, data::eos_id).tokens;
        if (!beam_one.empty() && beam_one.back() == data::eos_id) beam_one.pop_back();
        const std::vector<std::int64_t> greedy =
            ch01::greedy_decode<double>(model.decoder(source, source_lens), 1, 6, data::bos_id, data::eos_id).front();
        CHECK(beam_one == greedy);
    }
}

TEST_CASE("ch08 part 7: the trace follows greedy's path through the beam" * doctest::test_suite("ch08")) {
    // With a beam of 1 the only row is greedy's own prefix at every step; with a prefix that
    // is not greedy's, the trace loses it at once (after the first step, <bos> alone).
    ch01::Task task = ch01::load_task("dates", "", 7, /*quick=*/true);
    ch07::TranslationSizes sizes = tiny_sizes();
    sizes.source_vocab = task.source_vocab.size();
    sizes.target_vocab = task.target_vocab.size();
    task.max_output_len = 6;
    Rng rng(14);
    CachedTranslationModel<float> model(sizes, rng);
    const data::Pair& pair = task.corpus.test.front();
    const Hypothesis greedy = ch08::beam_translate(model, task, {pair}, 1).front();
    const ch08::BeamTrace followed = ch08::trace_greedy_path(model, task, pair, greedy.tokens, 1);
    CHECK(followed.steps == greedy.tokens.size());
    CHECK(followed.greedy_steps == followed.steps);
    std::vector<std::int64_t> other = greedy.tokens;
    other.front() = other.front() == 4 ? 5 : 4;   // another first word
    const ch08::BeamTrace lost = ch08::trace_greedy_path(model, task, pair, other, 1);
    CHECK(lost.greedy_steps == 1);
}

TEST_CASE("ch08 model: the beam step refuses a batch of several sentences" * doctest::test_suite("ch08")) {
    Rng rng(11);
    CachedTranslationModel<double> model(tiny_sizes(), rng);
    CHECK_THROWS_AS(model.beam_decoder(IndexMatrix{{4, 5}, {6, 7}}, IndexVector{2, 2}), std::invalid_argument);
}

TEST_CASE("ch08 part 7: beam against greedy, sentence by sentence" * doctest::test_suite("ch08")) {
    const std::vector<Hypothesis> greedy = {hypothesis({4, 5, 2}, -1.0), hypothesis({4, 6, 2}, -2.0),
                                            hypothesis({5, 2}, -0.5), hypothesis({7, 2}, -0.25)};
    const std::vector<Hypothesis> beam = {
        hypothesis({4, 5, 2}, -1.0 + 1e-7),   // the same output: equal, whatever the rounding
        hypothesis({4, 7, 2}, -1.5),          // better than greedy's: above
        hypothesis({6, 2}, -0.75),            // below by 0.25
        hypothesis({7, 4, 2}, -1.25)};        // below by 1: the largest fall
    const ch08::LogProbabilityCounts counts = ch08::compare_log_probabilities(greedy, beam);
    CHECK(counts.equal == 1);
    CHECK(counts.above == 1);
    CHECK(counts.below == 2);
    CHECK(counts.largest_fall == 3);

    const ch08::LogProbabilityCounts none = ch08::compare_log_probabilities(greedy, greedy);
    CHECK(none.equal == 4);
    CHECK(none.largest_fall == -1);
    CHECK_THROWS_AS(ch08::compare_log_probabilities(greedy, {beam[0]}), std::invalid_argument);
}
