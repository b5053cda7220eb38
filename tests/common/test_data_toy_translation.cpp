// The toy French->English grammar: worked examples of its rules, and properties of the
// corpus (lengths, buckets, vocabulary, adjective order, determinism, disjoint splits).
#include "common/data/toy_translation.hpp"

#include "common/data/batching.hpp"
#include "common/data/tokenize.hpp"
#include "common/data/toy_lexicon.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

using namespace attn::data;
using Tokens = std::vector<std::string>;

namespace {

// The index of the entry whose `field` is `word` in a lexicon table (throws if absent).
template <class Entry, class Field>
std::size_t find(const std::vector<Entry>& table, Field field, const std::string& word) {
    for (std::size_t i = 0; i < table.size(); ++i)
        if (table[i].*field == word) return i;
    throw std::invalid_argument("not in the lexicon: " + word);
}

toy::NounPhrase noun_phrase(const std::string& determiner, const std::string& noun, const std::string& pre,
                            const Tokens& post) {
    toy::NounPhrase np;
    np.determiner = find(toy::determiners(), &toy::Determiner::masculine, determiner);
    np.noun = find(toy::nouns(), &toy::Noun::french, noun);
    if (!pre.empty()) np.pre_adjective = find(toy::adjectives(), &toy::Adjective::masculine, pre);
    for (const std::string& a : post) np.post_adjectives.push_back(find(toy::adjectives(), &toy::Adjective::masculine, a));
    return np;
}

// A one-clause sentence: subject verb [object].
toy::Sentence clause(const toy::NounPhrase& subject, const std::string& verb,
                     const std::optional<toy::NounPhrase>& object = std::nullopt) {
    toy::VerbPhrase predicate{find(toy::verbs(), &toy::Verb::french, verb), object, std::nullopt};
    return toy::Sentence{{toy::Clause{subject, std::nullopt, predicate}}, {}};
}

std::string french(const toy::Sentence& s) { return join_tokens(toy::french_tokens(s), " "); }
std::string english(const toy::Sentence& s) { return join_tokens(toy::english_tokens(s), " "); }

bool contains(const Tokens& tokens, const Tokens& part) {
    return std::search(tokens.begin(), tokens.end(), part.begin(), part.end()) != tokens.end();
}

const Corpus& default_corpus() {
    static const Corpus corpus = make_toy_translation_corpus(toy_translation_default_sizes, 1);
    return corpus;
}

}  // namespace

TEST_CASE("data: the toy grammar's rules on worked examples" * doctest::test_suite("common")) {
    SUBCASE("adjectives follow the noun in French, precede it in English, mirrored") {
        const toy::Sentence s = clause(noun_phrase("les", "maison", "grand", {"rouge"}), "tombe");
        CHECK(french(s) == "les grandes maisons rouges tombent");
        CHECK(english(s) == "the big red houses fall");
        const toy::Sentence t = clause(noun_phrase("le", "chat", "", {"noir", "heureux"}), "dort");
        CHECK(french(t) == "le chat noir heureux dort");
        CHECK(english(t) == "the happy black cat sleeps");
    }
    SUBCASE("the verb agrees with its subject in number, in both languages") {
        const toy::NounPhrase mouse = noun_phrase("le", "souris", "", {});   // "le" agrees: "la souris"
        CHECK(french(clause(noun_phrase("le", "chat", "", {}), "mange", mouse)) == "le chat mange la souris");
        CHECK(english(clause(noun_phrase("le", "chat", "", {}), "mange", mouse)) == "the cat eats the mouse");
        CHECK(french(clause(noun_phrase("les", "chat", "", {}), "mange", mouse)) == "les chats mangent la souris");
        CHECK(english(clause(noun_phrase("les", "chat", "", {}), "mange", mouse)) == "the cats eat the mouse");
    }
    SUBCASE("French elides before a vowel; English says an before one") {
        CHECK(french(clause(noun_phrase("le", "oiseau", "", {}), "chante")) == "l' oiseau chante");
        CHECK(french(clause(noun_phrase("ce", "homme", "", {}), "rit")) == "cet homme rit");
        CHECK(french(clause(noun_phrase("le", "homme", "vieux", {}), "rit")) == "le vieil homme rit");
        CHECK(english(clause(noun_phrase("le", "homme", "vieux", {}), "rit")) == "the old man laughs");
        CHECK(english(clause(noun_phrase("un", "homme", "vieux", {}), "rit")) == "an old man laughs");
        CHECK(english(clause(noun_phrase("un", "chat", "", {"européen"}), "rit")) == "a european cat laughs");
        toy::Sentence two = clause(noun_phrase("le", "chat", "", {}), "dort");
        two.clauses.push_back(clause(noun_phrase("un", "homme", "", {}), "rit").clauses[0]);
        two.conjunctions.push_back(find(toy::conjunctions(), &toy::Translation::french, "parce que"));
        CHECK(french(two) == "le chat dort parce qu' un homme rit");
        CHECK(english(two) == "the cat sleeps because a man laughs");
    }
    SUBCASE("fixed phrases translate as a whole, with their own order") {
        toy::NounPhrase area;
        area.fixed_phrase = 0;
        const toy::Sentence s = clause(noun_phrase("le", "roi", "", {}), "visite", area);
        CHECK(french(s) == "le roi visite la zone économique européenne");
        CHECK(english(s) == "the king visits the european economic area");
        area.fixed_phrase = 1;
        const toy::Sentence bank = clause(noun_phrase("le", "roi", "", {}), "visite", area);
        CHECK(french(bank) == "le roi visite la banque centrale européenne");
        CHECK(english(bank) == "the king visits the european central bank");
    }
}

TEST_CASE("data: toy sentences have 3 to 40 words, spread over the length buckets" * doctest::test_suite("common")) {
    const Corpus& corpus = default_corpus();
    REQUIRE(corpus.train.size() == 30000);
    REQUIRE(corpus.validation.size() == 1000);
    REQUIRE(corpus.test.size() == 2000);
    std::size_t outside = 0;
    for (const std::vector<Pair>* split : {&corpus.train, &corpus.validation, &corpus.test})
        for (const Pair& pair : *split) outside += pair.source.size() < 3 || pair.source.size() > 40;
    CHECK(outside == 0);
    SUBCASE("each bucket of 10 lengths holds a fair share of the test set") {
        const std::vector<Bucket> buckets = bucket_by_source_length(corpus.test, {10, 20, 30, 40});
        REQUIRE(buckets.size() == 4);
        for (const Bucket& bucket : buckets) {
            CAPTURE(bucket.label());
            CHECK(bucket.pairs.size() >= 300);   // 15%; uniform lengths give 21%, 26%, 26%, 26%
        }
    }
    SUBCASE("random_toy_sentence hits the asked length almost always and never exceeds it") {
        attn::Rng rng(3);
        std::size_t exact = 0, longer = 0;
        for (std::size_t length = 3; length <= 40; ++length)
            for (int k = 0; k < 50; ++k) {
                const std::size_t got = toy::french_tokens(random_toy_sentence(length, rng)).size();
                exact += got == length;
                longer += got > length;
            }
        CHECK(longer == 0);
        CHECK(exact >= 38 * 50 * 95 / 100);
        CHECK_THROWS_AS(random_toy_sentence(41, rng), std::invalid_argument);
    }
}

TEST_CASE("data: the toy vocabulary has at least 150 words per side" * doctest::test_suite("common")) {
    const Corpus& corpus = default_corpus();
    const std::vector<std::string> french_words = toy::french_words(), english_words = toy::english_words();
    CHECK(french_words.size() >= 150);
    CHECK(english_words.size() >= 150);
    std::set<std::string> french_seen, english_seen;
    for (const Pair& pair : corpus.train) {
        french_seen.insert(pair.source.begin(), pair.source.end());
        english_seen.insert(pair.target.begin(), pair.target.end());
    }
    CHECK(french_seen.size() >= 150);   // the words the training set really uses
    CHECK(english_seen.size() >= 150);
    SUBCASE("every generated word is in the lexicon's word list") {
        const std::set<std::string> french_known(french_words.begin(), french_words.end());
        const std::set<std::string> english_known(english_words.begin(), english_words.end());
        for (const std::string& w : french_seen) CHECK_MESSAGE(french_known.count(w) == 1, w);
        for (const std::string& w : english_seen) CHECK_MESSAGE(english_known.count(w) == 1, w);
    }
}

TEST_CASE("data: in every toy pair, French post-nominal adjectives come mirrored before the noun in English" *
          doctest::test_suite("common")) {
    // French form -> English form, for nouns and post-nominal adjectives (ambiguous forms such
    // as "souris", singular and plural, are left out).
    std::map<std::string, std::set<std::string>> noun_forms;
    std::map<std::string, std::string> adjective_forms;
    for (const toy::Noun& n : toy::nouns()) {
        noun_forms[n.french].insert(n.english);
        noun_forms[n.french_plural].insert(n.english_plural);
    }
    for (const toy::Adjective& a : toy::adjectives())
        if (!a.before_noun)
            for (const std::string& form : {a.masculine, a.feminine, a.masculine_plural, a.feminine_plural})
                adjective_forms[form] = a.english;
    std::size_t checked = 0, failed = 0;
    for (const Pair& pair : default_corpus().test)
        for (std::size_t i = 0; i < pair.source.size(); ++i) {
            const auto noun = noun_forms.find(pair.source[i]);
            if (noun == noun_forms.end() || noun->second.size() != 1) continue;
            Tokens expected;   // the English adjectives in reverse order, then the noun
            for (std::size_t j = i + 1; j < pair.source.size() && adjective_forms.count(pair.source[j]); ++j)
                expected.insert(expected.begin(), adjective_forms[pair.source[j]]);
            if (expected.empty()) continue;
            expected.push_back(*noun->second.begin());
            ++checked;
            if (!contains(pair.target, expected) && ++failed <= 3) MESSAGE(join_tokens(pair.source, " "));
        }
    CHECK(checked >= 500);
    CHECK(failed == 0);
}

TEST_CASE("data: the toy corpus is deterministic, and French determines English" * doctest::test_suite("common")) {
    const Corpus& corpus = default_corpus();
    SUBCASE("the same seed gives the same corpus, another seed another") {
        const Corpus again = make_toy_translation_corpus(SplitSizes{100, 10, 50}, 7);
        const Corpus same = make_toy_translation_corpus(SplitSizes{100, 10, 50}, 7);
        const Corpus other = make_toy_translation_corpus(SplitSizes{100, 10, 50}, 8);
        CHECK(again.train.back().source == same.train.back().source);
        CHECK(again.test.front().target == same.test.front().target);
        std::size_t equal = 0;
        for (std::size_t i = 0; i < 50; ++i) equal += again.test[i].source == other.test[i].source;
        CHECK(equal < 5);
    }
    SUBCASE("the same French sentence always gets the same English one") {
        std::unordered_map<std::string, std::string> translation;
        std::size_t repeats = 0, conflicts = 0;
        for (std::uint64_t seed = 1; seed <= 20; ++seed) {
            attn::Rng rng(seed);
            for (int k = 0; k < 2000; ++k) {   // short sentences repeat often
                const toy::Sentence s = random_toy_sentence(3 + k % 4, rng);
                const auto [at, inserted] = translation.emplace(french(s), english(s));
                repeats += !inserted;
                conflicts += !inserted && at->second != english(s);
            }
        }
        CHECK(repeats >= 1000);
        CHECK(conflicts == 0);
    }
    SUBCASE("no validation or test sentence occurs in training; test ignores the training size") {
        std::unordered_set<std::string> train;
        for (const Pair& pair : corpus.train) train.insert(join_tokens(pair.source, " "));
        std::size_t leaks = 0;
        for (const Pair& pair : corpus.validation) leaks += train.count(join_tokens(pair.source, " "));
        for (const Pair& pair : corpus.test) leaks += train.count(join_tokens(pair.source, " "));
        CHECK(leaks == 0);
        const Corpus small = make_toy_translation_corpus(SplitSizes{10, 10, 2000}, 1);
        CHECK(small.test.back().source == corpus.test.back().source);
    }
}
