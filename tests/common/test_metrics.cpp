// Metrics: token accuracy and exact match worked by hand; BLEU worked by hand and checked
// against NLTK's numbers in tests/data/common/bleu_cases.txt (written by make_bleu_cases.py).
#include "common/metrics.hpp"
#include "tests/support/gradients.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using attn::metrics::Sentence;
namespace metrics = attn::metrics;

namespace {

// Both sides compute the same floating-point operations in nearly the same order; NLTK sums
// the logs with math.fsum, which may differ from a plain sum in the last bits.
constexpr double relative_tolerance = 1e-12;
// NLTK replaces a zero precision by sys.float_info.min, so its unsmoothed "0" is
// (2.2e-308)^(1/max_n) times the rest: about 1e-77 or smaller, never above this.
constexpr double nltk_zero = 1e-60;

Sentence words(const std::string& text) {
    Sentence tokens;
    std::istringstream stream(text);
    std::string token;
    while (stream >> token) tokens.push_back(token);
    return tokens;
}

bool close(double actual, double expected) {
    const double scale = std::max(std::abs(actual), std::abs(expected));
    return std::abs(actual - expected) <= relative_tolerance * scale;
}

// One block of bleu_cases.txt.
struct BleuCase {
    std::string name;
    std::vector<Sentence> hypotheses, references;
    std::vector<double> nltk_sentence_bleu;          // one per pair, method1 smoothing, max_n 4
    double nltk_corpus_bleu_4 = 0, nltk_corpus_bleu_2 = 0;
    double papineni_bleu_4 = 0, papineni_bleu_2 = 0;
};

// The tokens after "hyp: ": single spaces between them (so "hyp:" alone is an empty sentence).
Sentence tokens_after(const std::string& line, std::size_t prefix_length) {
    Sentence tokens;
    if (line.size() <= prefix_length) return tokens;
    std::string rest = line.substr(prefix_length + 1);
    std::size_t start = 0;
    for (std::size_t space = rest.find(' '); space != std::string::npos; space = rest.find(' ', start)) {
        tokens.push_back(rest.substr(start, space - start));
        start = space + 1;
    }
    tokens.push_back(rest.substr(start));
    return tokens;
}

std::vector<BleuCase> read_bleu_cases(const std::string& path) {
    std::ifstream file(path);
    if (!file) throw std::runtime_error("cannot open " + path);
    std::vector<BleuCase> cases;
    std::string line;
    const auto starts = [&line](const std::string& key) { return line.rfind(key + ":", 0) == 0; };
    const auto number = [&line]() { return std::stod(line.substr(line.find(':') + 1)); };
    while (std::getline(file, line)) {
        if (line.rfind("case ", 0) == 0) cases.push_back(BleuCase{line.substr(5), {}, {}, {}});
        else if (starts("hyp")) cases.back().hypotheses.push_back(tokens_after(line, 4));
        else if (starts("ref")) cases.back().references.push_back(tokens_after(line, 4));
        else if (starts("nltk_sentence_bleu")) cases.back().nltk_sentence_bleu.push_back(number());
        else if (starts("nltk_corpus_bleu_4")) cases.back().nltk_corpus_bleu_4 = number();
        else if (starts("nltk_corpus_bleu_2")) cases.back().nltk_corpus_bleu_2 = number();
        else if (starts("papineni_bleu_4")) cases.back().papineni_bleu_4 = number();
        else if (starts("papineni_bleu_2")) cases.back().papineni_bleu_2 = number();
    }
    return cases;
}

bool every_hypothesis_has(const BleuCase& c, std::size_t tokens) {
    return std::all_of(c.hypotheses.begin(), c.hypotheses.end(),
                       [tokens](const Sentence& h) { return h.size() >= tokens; });
}

}  // namespace

TEST_CASE("metrics: token accuracy and exact match" * doctest::test_suite("common")) {
    const std::vector<Sentence> reference = {words("a b c d"), words("e f"), words("g h i")};

    SUBCASE("a perfect prediction scores 1 on both") {
        CHECK(metrics::token_accuracy(reference, reference) == 1.0);
        CHECK(metrics::exact_match(reference, reference) == 1.0);
    }
    SUBCASE("a set worked by hand") {
        // sentence 1: a b X d   vs a b c d -> 3 of 4 right
        // sentence 2: e f z z   vs e f     -> 2 of 2 right (extra tokens ignored), not exact
        // sentence 3: g h i     vs g h i   -> 3 of 3 right, exact
        // token accuracy = (3 + 2 + 3) / (4 + 2 + 3) = 8 / 9;  exact match = 1 / 3
        const std::vector<Sentence> predicted = {words("a b X d"), words("e f z z"), words("g h i")};
        CHECK(metrics::token_accuracy(predicted, reference) == doctest::Approx(8.0 / 9.0).epsilon(1e-15));
        CHECK(metrics::exact_match(predicted, reference) == doctest::Approx(1.0 / 3.0).epsilon(1e-15));
    }
    SUBCASE("a prediction that stops early loses the missing positions") {
        // a b vs a b c d -> 2 of 4; e vs e f -> 1 of 2; (empty) vs g h i -> 0 of 3:  3 / 9
        const std::vector<Sentence> predicted = {words("a b"), words("e"), Sentence{}};
        CHECK(metrics::token_accuracy(predicted, reference) == doctest::Approx(3.0 / 9.0).epsilon(1e-15));
        CHECK(metrics::exact_match(predicted, reference) == 0.0);
    }
    SUBCASE("a shifted prediction scores position by position") {
        // X a b c vs a b c d: no position agrees, although 3 tokens are shared
        const std::vector<Sentence> predicted = {words("X a b c"), words("e f"), words("g h i")};
        CHECK(metrics::token_accuracy(predicted, reference) == doctest::Approx(5.0 / 9.0).epsilon(1e-15));
    }
    SUBCASE("mismatched sizes, empty sets and empty references are errors") {
        const std::vector<Sentence> two = {words("a"), words("b")};
        CHECK_THROWS_WITH_AS(metrics::token_accuracy(two, reference),
                             "token_accuracy: 2 hypotheses but 3 references (one reference per hypothesis)",
                             std::invalid_argument);
        CHECK_THROWS_AS(metrics::exact_match(two, reference), std::invalid_argument);
        CHECK_THROWS_AS(metrics::exact_match({}, {}), std::invalid_argument);
        CHECK_THROWS_AS(metrics::token_accuracy({Sentence{}}, {Sentence{}}), std::invalid_argument);
    }
}

TEST_CASE("metrics: BLEU worked by hand" * doctest::test_suite("common")) {
    const Sentence reference = words("the cat sat on the mat");

    SUBCASE("clipping counts each reference n-gram at most as often as it occurs there") {
        // "the" occurs once in "the cat": 4 hypothesis unigrams, 1 clipped match
        const metrics::NgramMatches m =
            metrics::count_ngram_matches(words("the the the the"), words("the cat"), 1);
        CHECK(m.matched == 1);
        CHECK(m.total == 4);
        // bigrams of "the cat sat on the mat" against themselves: 5 of 5
        const metrics::NgramMatches b = metrics::count_ngram_matches(reference, reference, 2);
        CHECK(b.matched == 5);
        CHECK(b.total == 5);
    }
    SUBCASE("a hypothesis identical to its reference scores 1") {
        CHECK(metrics::corpus_bleu({reference}, {reference}) == doctest::Approx(1.0).epsilon(1e-15));
        CHECK(metrics::sentence_bleu(reference, reference) == doctest::Approx(1.0).epsilon(1e-15));
    }
    SUBCASE("a 3-word hypothesis has no 4-grams, so unsmoothed BLEU-4 is 0") {
        CHECK(metrics::corpus_bleu({words("the cat sat")}, {reference}, 4) == 0.0);
    }
    SUBCASE("the brevity penalty shrinks a correct but short hypothesis") {
        // all precisions are 1 (every n-gram of the hypothesis is in the reference);
        // c = 5, r = 7: BP = exp(1 - 7/5) = exp(-0.4) = 0.670320046...
        const double bleu = metrics::corpus_bleu({words("the cat sat on the")},
                                                       {words("the cat sat on the mat today")});
        CHECK(bleu == doctest::Approx(0.6703200460356393).epsilon(1e-14));
        CHECK(metrics::brevity_penalty(5, 7) == doctest::Approx(std::exp(-0.4)).epsilon(1e-15));
        CHECK(metrics::brevity_penalty(7, 5) == 1.0);
        CHECK(metrics::brevity_penalty(0, 5) == 0.0);
    }
    SUBCASE("BLEU-2 of a swapped word order, worked by hand") {
        // hyp "the cat sat the mat on": unigrams 6 of 6; bigrams the-cat, cat-sat, the-mat
        // match, sat-the and mat-on do not: 3 of 5. BP = 1 (c = r = 6).
        // BLEU-2 = sqrt(1 * 3/5) = 0.7745966692...
        CHECK(metrics::corpus_bleu({words("the cat sat the mat on")}, {reference}, 2) ==
              doctest::Approx(std::sqrt(0.6)).epsilon(1e-14));
    }
    SUBCASE("smoothing gives a zero precision 0.1 matches instead") {
        // "yes" vs "yes": p1 = 1/1; p2, p3, p4 have no n-grams, counted as 0.1 / 1 each;
        // BLEU = (1 * 0.1^3)^(1/4) = 0.1^0.75 = 0.17782794...
        CHECK(metrics::sentence_bleu(words("yes"), words("yes")) ==
              doctest::Approx(std::pow(0.1, 0.75)).epsilon(1e-14));
        // not a word right: still 0, smoothing does not apply to unigrams
        CHECK(metrics::sentence_bleu(words("a b c"), words("x y z")) == 0.0);
    }
    SUBCASE("score_all reports the three numbers of the set") {
        const metrics::Scores s = metrics::score_all({reference, words("a b")}, {reference, words("a c")});
        // token accuracy (6 + 1) / (6 + 2) = 7/8; exact match 1/2.
        // BLEU: unigrams 7 of 8, bigrams 5 of 6, trigrams 4 of 4, 4-grams 3 of 3; c = r = 8, BP = 1:
        // (7/8 * 5/6 * 1 * 1)^(1/4) = (35/48)^(1/4) = 0.92407...
        CHECK(s.token_accuracy == doctest::Approx(7.0 / 8.0).epsilon(1e-15));
        CHECK(s.exact_match == 0.5);
        CHECK(s.bleu == doctest::Approx(std::pow(35.0 / 48.0, 0.25)).epsilon(1e-14));
    }
    SUBCASE("mismatched sizes, an empty corpus and max_n < 1 are errors") {
        CHECK_THROWS_WITH_AS(metrics::corpus_bleu({reference, reference}, {reference}),
                             "corpus_bleu: 2 hypotheses but 1 references (one reference per hypothesis)",
                             std::invalid_argument);
        CHECK_THROWS_AS(metrics::corpus_bleu({}, {}), std::invalid_argument);
        CHECK_THROWS_AS(metrics::corpus_bleu({reference}, {reference}, 0), std::invalid_argument);
        CHECK_THROWS_AS(metrics::sentence_bleu(reference, reference, 0), std::invalid_argument);
    }
}

TEST_CASE("metrics: BLEU matches NLTK" * doctest::test_suite("common")) {
    const std::vector<BleuCase> cases = read_bleu_cases(support::data_path("common/bleu_cases.txt"));
    REQUIRE(cases.size() >= 14);
    for (const BleuCase& c : cases) {
        INFO(c.name);
        REQUIRE(c.references.size() == c.hypotheses.size());
        REQUIRE(c.nltk_sentence_bleu.size() == c.hypotheses.size());
    }

    SUBCASE("sentence BLEU with method1 smoothing equals NLTK's for every pair") {
        std::size_t pairs = 0;
        for (const BleuCase& c : cases) {
            for (std::size_t i = 0; i < c.hypotheses.size(); ++i, ++pairs) {
                const double ours = metrics::sentence_bleu(c.hypotheses[i], c.references[i]);
                INFO(c.name, " pair ", i, ": ours ", ours, ", NLTK ", c.nltk_sentence_bleu[i]);
                CHECK(close(ours, c.nltk_sentence_bleu[i]));
            }
        }
        CHECK(pairs >= 80);
    }
    SUBCASE("corpus BLEU equals NLTK's where every hypothesis has at least max_n tokens") {
        std::size_t compared = 0;
        for (const BleuCase& c : cases) {
            for (const int max_n : {4, 2}) {
                const double nltk = max_n == 4 ? c.nltk_corpus_bleu_4 : c.nltk_corpus_bleu_2;
                if (!every_hypothesis_has(c, static_cast<std::size_t>(max_n))) continue;
                const double ours = metrics::corpus_bleu(c.hypotheses, c.references, max_n);
                INFO(c.name, " max_n ", max_n, ": ours ", ours, ", NLTK ", nltk);
                if (nltk < nltk_zero) CHECK(ours == 0.0);
                else CHECK(close(ours, nltk));
                ++compared;
            }
        }
        CHECK(compared >= 20);
    }
    SUBCASE("corpus BLEU equals the Papineni totals built from NLTK's counts in every case") {
        // With short hypotheses NLTK counts one n-gram too many per sentence; the script
        // recomputes those cases from NLTK's clipped counts and Papineni's totals.
        for (const BleuCase& c : cases) {
            for (const int max_n : {4, 2}) {
                const double expected = max_n == 4 ? c.papineni_bleu_4 : c.papineni_bleu_2;
                const double ours = metrics::corpus_bleu(c.hypotheses, c.references, max_n);
                INFO(c.name, " max_n ", max_n, ": ours ", ours, ", expected ", expected);
                if (expected == 0.0) CHECK(ours == 0.0);
                else CHECK(close(ours, expected));
            }
        }
    }
}
