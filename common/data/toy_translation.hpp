// Toy French->English translation data: random sentences of the grammar in toy_grammar.hpp,
// 3 to 40 French words, with lengths spread evenly so every length bucket is well filled.
// Long sentences are clauses joined by conjunctions: a single context vector struggles with
// them, attention does not. Introduced in chapter 01.
#pragma once
#include "common/data/corpus.hpp"
#include "common/data/toy_grammar.hpp"
#include "common/random.hpp"

#include <cstddef>
#include <cstdint>

namespace attn::data {

constexpr std::size_t toy_min_length = 3;    // French words per sentence
constexpr std::size_t toy_max_length = 40;

// The default sizes the chapters use: 30 000 train, 1 000 validation, 2 000 test.
constexpr SplitSizes toy_translation_default_sizes{30000, 1000, 2000};

// A random sentence of about `length` French words (toy_min_length..toy_max_length): the
// clauses start minimal ("le chat dort") and grow by random steps (an adjective, an
// object, a prepositional phrase, a relative clause, a fixed phrase) while they fit. It
// hits `length` exactly almost always, and is never longer.
toy::Sentence random_toy_sentence(std::size_t length, Rng& rng);

// Pairs (French words, English words). Each sentence draws its length uniformly from
// 3..40, so the buckets 1-10, 11-20, 21-30 and 31-40 hold about 21%, 26%, 26% and 26%.
// No French sentence occurs twice in the whole corpus: the test and validation sentences
// are never seen in training. Test is generated first, so it depends only on the seed and
// sizes.test. Deterministic for a seed; the defaults take well under a second.
Corpus make_toy_translation_corpus(const SplitSizes& sizes, std::uint64_t seed);

}  // namespace attn::data
