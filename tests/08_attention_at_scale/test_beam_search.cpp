// Self-checks for exercise 08.6: beam_search (exercises/08_attention_at_scale/beam_search.cpp).
#include "chapters/08_attention_at_scale/beam_search.hpp"
#include "chapters/01_encoder_decoder/greedy_decode.hpp"
#include "common/random.hpp"
#include "tests/support/print_tokens.hpp"
#include "tests/support/property.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <string>

using attn::Var;

namespace {

// Tokens of the hand-made models: <bos>, <eos>, and the words a and b.
constexpr std::int64_t bos = 0, eos = 1, a = 2, b = 3, vocab = 4;
using Tokens = std::vector<std::int64_t>;
using Table = std::vector<std::vector<double>>;   // table[previous][next] = p(next | previous)

// The tokens as words ("a b <eos>"), so that a failing check reads as a sentence.
std::string words(const Tokens& tokens) {
    static const char* const name[] = {"<bos>", "<eos>", "a", "b"};
    std::string text;
    for (std::int64_t token : tokens)
        text += (text.empty() ? "" : " ") + (token >= 0 && token < vocab ? std::string(name[token]) : std::to_string(token));
    return text;
}

// A Markov chain as a decoder: the next token's distribution depends on the previous token
// only. The logits are log p plus a different constant per row, so a beam that skips the
// log-softmax adds the wrong numbers.
Var<double> markov_logits(const Table& table, const attn::IndexVector& previous) {
    xt::xarray<double> logits = xt::zeros<double>({previous.size(), std::size_t(vocab)});
    for (std::size_t row = 0; row < previous.size(); ++row)
        for (std::int64_t v = 0; v < vocab; ++v)
            logits(row, v) = std::log(table.at(previous(row)).at(v)) + 3.0 + double(row);
    return attn::constant<double>(logits);
}

attn::ch08::BeamStep<double> markov_step(const Table& table) {
    return [table](const attn::IndexVector& previous, const std::vector<std::size_t>&) {
        return markov_logits(table, previous);
    };
}

// Greedy beats beam 2 here (the arithmetic is in the first property).
const Table garden_path = {
    /* from <bos> */ {0.0001, 0.0999, 0.5, 0.4},
    /* from <eos> */ {0.25, 0.25, 0.25, 0.25},   // never asked for
    /* from a     */ {0.0001, 0.4, 0.2999, 0.3},
    /* from b     */ {0.0001, 0.9, 0.0499, 0.05}};

// An early <eos> that a longer sentence beats.
const Table late_winner = {
    /* from <bos> */ {0.0001, 0.4, 0.5998, 0.0001},
    /* from <eos> */ {0.25, 0.25, 0.25, 0.25},
    /* from a     */ {0.0001, 0.9, 0.0499, 0.05},
    /* from b     */ {0.0001, 0.5, 0.2499, 0.25}};

// Two worse sentences finish while a better prefix is still alive.
const Table long_winner = {
    /* from <bos> */ {0.0001, 0.3, 0.6, 0.0999},
    /* from <eos> */ {0.25, 0.25, 0.25, 0.25},   // never asked for
    /* from a     */ {0.0001, 0.2, 0.0999, 0.7},
    /* from b     */ {0.0001, 0.9, 0.05, 0.0499}};

// With a length penalty a longer sentence wins: 'a <eos>' has the higher total, 'b a <eos>' the
// higher total per token.
const Table short_total = {
    /* from <bos> */ {0.0001, 0.0001, 0.6, 0.3998},
    /* from <eos> */ {0.25, 0.25, 0.25, 0.25},   // never asked for
    /* from a     */ {0.0001, 0.5, 0.2499, 0.25},
    /* from b     */ {0.0001, 0.05, 0.9, 0.0499}};

// An early <eos> that a long run of a's beats once totals are divided by their lengths.
const Table long_run = {
    /* from <bos> */ {0.0001, 0.55, 0.4498, 0.0001},
    /* from <eos> */ {0.25, 0.25, 0.25, 0.25},   // never asked for
    /* from a     */ {0.0001, 0.05, 0.9498, 0.0001},
    /* from b     */ {0.25, 0.25, 0.25, 0.25}};   // never asked for

// A model whose next-token scores depend on the whole prefix (not only the last token), so
// a beam row fed another row's state scores its tokens wrongly.
std::vector<double> prefix_log_probabilities(const Tokens& prefix, int seed) {
    double h = seed;
    for (std::int64_t token : prefix) h = std::fmod(h * 7.31 + double(token) * 3.17 + 1.0, 97.0);
    std::vector<double> logits(vocab);
    for (std::int64_t v = 0; v < vocab; ++v) logits[v] = 2.0 * std::sin(1.0 + 0.9 * h + 1.3 * double(v));
    logits[eos] -= 0.7;   // sentences of a few tokens, so that max_len matters sometimes
    double total = 0;
    for (double l : logits) total += std::exp(l);
    for (double& l : logits) l -= std::log(total);
    return logits;
}

// The prefix model as a BeamStep: it keeps one prefix per row and rebuilds them through
// `parents`, as a Transformer reorders its key/value caches. It also records what it was fed.
struct PrefixModel {
    explicit PrefixModel(int seed_) : seed(seed_) {}
    int seed;
    std::vector<Tokens> rows = {{}};   // the state: each row's prefix, <bos> included
    std::vector<Tokens> inputs;         // previous_tokens of every call
    std::size_t widest = 0;             // the most rows of any call

    attn::ch08::BeamStep<double> step() {
        return [this](const attn::IndexVector& previous, const std::vector<std::size_t>& parents) {
            if (parents.size() != previous.size()) throw std::logic_error("parents and previous_tokens differ in size");
            std::vector<Tokens> next;
            for (std::size_t i = 0; i < previous.size(); ++i) {
                if (parents[i] >= rows.size()) throw std::logic_error("a parent names a row that does not exist");
                next.push_back(rows[parents[i]]);
                next.back().push_back(previous(i));
            }
            rows = next;
            inputs.emplace_back(previous.begin(), previous.end());
            widest = std::max(widest, previous.size());
            xt::xarray<double> logits = xt::zeros<double>({previous.size(), std::size_t(vocab)});
            for (std::size_t i = 0; i < rows.size(); ++i) {
                const std::vector<double> log_p = prefix_log_probabilities(rows[i], seed);
                for (std::int64_t v = 0; v < vocab; ++v) logits(i, v) = log_p[v] + 5.0;   // unnormalised on purpose
            }
            return attn::constant<double>(logits);
        };
    }
};

// log p(tokens) under the prefix model, computed directly from the tokens.
double prefix_score(const Tokens& tokens, int seed) {
    Tokens prefix = {bos};
    double score = 0;
    for (std::int64_t token : tokens) {
        score += prefix_log_probabilities(prefix, seed)[token];
        prefix.push_back(token);
    }
    return score;
}

// Brute force: every sequence that ends in <eos> within max_len tokens, or has max_len
// tokens without <eos>; the best by log-probability.
void search_all(Tokens& prefix, double score, std::size_t max_len, int seed, attn::ch08::Hypothesis& best) {
    Tokens with_bos = {bos};
    with_bos.insert(with_bos.end(), prefix.begin(), prefix.end());
    const std::vector<double> log_p = prefix_log_probabilities(with_bos, seed);
    for (std::int64_t v = 0; v < vocab; ++v) {
        prefix.push_back(v);
        const double extended = score + log_p[v];
        if (v == eos || prefix.size() == max_len) {
            if (extended > best.log_probability) best = {prefix, extended};
        } else {
            search_all(prefix, extended, max_len, seed, best);
        }
        prefix.pop_back();
    }
}

}  // namespace

TEST_CASE("08.6 beam_search" * doctest::test_suite("ch08")) {
    PROPERTY("beam 2 finds 'b <eos>' (p 0.36) where greedy stops at 'a <eos>' (p 0.20)") {
        // Step 1 from <bos>: a 0.5, b 0.4, <eos> 0.0999. Greedy takes a, then its best, <eos> 0.4:
        //   log p(a <eos>) = log 0.5 + log 0.4 = log 0.20 = -1.609.
        // Beam 2 keeps a and b, then compares all six extensions over both rows:
        //   b <eos> 0.4 * 0.9 = 0.36,  a <eos> 0.5 * 0.4 = 0.20,  a b 0.15,  a a 0.14995, ...
        // Both kept ones end in <eos>: none is alive, the search stops with b <eos>, log 0.36 = -1.022.
        const attn::ch08::Hypothesis greedy = attn::ch08::beam_search<double>(markov_step(garden_path), 1, 5, bos, eos);
        const attn::ch08::Hypothesis beam = attn::ch08::beam_search<double>(markov_step(garden_path), 2, 5, bos, eos);
        CHECK(words(greedy.tokens) == "a <eos>");
        CHECK(greedy.log_probability == doctest::Approx(std::log(0.20)).epsilon(1e-12));
        CHECK(words(beam.tokens) == "b <eos>");
        CHECK(beam.log_probability == doctest::Approx(std::log(0.36)).epsilon(1e-12));
    };
    PROPERTY("an early <eos> does not end the search while an alive prefix can still beat it") {
        // Beam 2, step 1: a 0.5998 stays alive, <eos> 0.4 finishes. a can still beat 0.4, so the
        // search goes on. Step 2: a <eos> 0.5998 * 0.9 = 0.5398 > 0.4 finishes, a b 0.5998 * 0.05
        // = 0.02999 stays alive; it scores below 0.5398 and can only fall, so the search stops.
        const attn::ch08::Hypothesis beam = attn::ch08::beam_search<double>(markov_step(late_winner), 2, 5, bos, eos);
        CHECK(words(beam.tokens) == "a <eos>");
        CHECK(beam.log_probability == doctest::Approx(std::log(0.5998 * 0.9)).epsilon(1e-12));
    };
    PROPERTY("beam_size worse finished hypotheses do not end the search while a better prefix is alive") {
        // Beam 2. Step 1 from <bos>: a 0.6, <eos> 0.3, b 0.0999; a stays alive, <eos> finishes (0.3).
        // Step 2 from a: a b 0.6 * 0.7 = 0.42, a <eos> 0.6 * 0.2 = 0.12, a a 0.05994; a b stays
        //   alive, a <eos> finishes (0.12). Two (beam_size) have finished, but the alive a b (0.42)
        //   scores above the best of them (0.3), so the search goes on.
        // Step 3 from b: a b <eos> 0.42 * 0.9 = 0.378 finishes, a b a 0.42 * 0.05 = 0.021 stays
        //   alive; 0.021 < 0.378, so the search stops with a b <eos>, log 0.378 = -0.973 (> log 0.3).
        const attn::ch08::Hypothesis beam = attn::ch08::beam_search<double>(markov_step(long_winner), 2, 5, bos, eos);
        CHECK(words(beam.tokens) == "a b <eos>");
        CHECK(beam.log_probability == doctest::Approx(std::log(0.6 * 0.7 * 0.9)).epsilon(1e-12));
    };
    PROPERTY("log_probability is the sum of the log-softmax entries along the tokens, <eos> included") {
        for (int seed = 1; seed <= 5; ++seed) {
            PrefixModel model(seed);
            const attn::ch08::Hypothesis found = attn::ch08::beam_search<double>(model.step(), 3, 6, bos, eos);
            CAPTURE(seed);
            CHECK(found.log_probability == doctest::Approx(prefix_score(found.tokens, seed)).epsilon(1e-12));
        }
    };
    PROPERTY("a finished hypothesis leaves the beam: <eos> is never fed back, and at most beam_size rows step") {
        for (int seed = 1; seed <= 5; ++seed) {
            PrefixModel model(seed);
            (void)attn::ch08::beam_search<double>(model.step(), 3, 6, bos, eos);
            CAPTURE(seed);
            CHECK(model.widest <= 3);
            for (const Tokens& fed : model.inputs)
                for (std::int64_t token : fed) CHECK(token != eos);
        }
    };
    PROPERTY("parents name the row each new row extends: a model that depends on the whole prefix agrees") {
        // The model rebuilds each row's prefix from parents; if they were wrong, it would score
        // some row's next token after another row's prefix, and the beam's total would differ
        // from the score of its own tokens.
        for (int seed = 1; seed <= 8; ++seed) {
            PrefixModel model(seed);
            const attn::ch08::Hypothesis found = attn::ch08::beam_search<double>(model.step(), 4, 6, bos, eos);
            CAPTURE(seed);
            REQUIRE(!found.tokens.empty());
            CHECK(found.log_probability == doctest::Approx(prefix_score(found.tokens, seed)).epsilon(1e-12));
        }
    };
    PROPERTY("with a beam as wide as every prefix, the result is the best of all sequences up to max_len") {
        const std::size_t max_len = 4, everything = 4 * 4 * 4 * 4;   // vocab^max_len prefixes at most
        for (int seed = 1; seed <= 8; ++seed) {
            attn::ch08::Hypothesis best{{}, -1e300};
            Tokens prefix;
            search_all(prefix, 0.0, max_len, seed, best);
            PrefixModel model(seed);
            const attn::ch08::Hypothesis found =
                attn::ch08::beam_search<double>(model.step(), everything, max_len, bos, eos);
            CAPTURE(seed);
            CHECK(words(found.tokens) == words(best.tokens));
            CHECK(found.log_probability == doctest::Approx(best.log_probability).epsilon(1e-12));
        }
    };
    PROPERTY("beam_size 1 gives chapter 01's greedy_decode tokens, on random Markov chains") {
        attn::Rng rng(7);
        for (int trial = 0; trial < 10; ++trial) {
            Table table(vocab, std::vector<double>(vocab));
            for (auto& row : table) {
                double total = 0;
                for (double& p : row) total += (p = rng.uniform(0.05, 1.0));
                for (double& p : row) p /= total;
            }
            const Tokens greedy = attn::ch01::greedy_decode<double>(
                [&](const attn::IndexVector& previous) { return markov_logits(table, previous); }, 1, 6, bos, eos)[0];
            const attn::ch08::Hypothesis beam = attn::ch08::beam_search<double>(markov_step(table), 1, 6, bos, eos);
            Tokens expected = greedy;
            if (greedy.size() < 6) expected.push_back(eos);   // greedy stopped at <eos>, which it does not keep
            CAPTURE(trial);
            CHECK(words(beam.tokens) == words(expected));
        }
    };
    PROPERTY("ties go to the smaller token, and of equally good hypotheses to the first") {
        // From <bos>, a and b are equally likely (0.4 each; one row, so their log-probabilities
        // are the same number). Beam 1 keeps a, the smaller token id, as greedy_decode would.
        // Beam 2 with max_len 1 keeps both, alive at the end with equal scores: a comes first
        // in the ranking, so a is returned.
        const Table tie = {
            /* from <bos> */ {0.0001, 0.1999, 0.4, 0.4},
            /* from <eos> */ {0.25, 0.25, 0.25, 0.25},   // never asked for
            /* from a     */ {0.0001, 0.9, 0.0499, 0.05},
            /* from b     */ {0.0001, 0.9, 0.05, 0.0499}};
        const attn::ch08::Hypothesis greedy = attn::ch08::beam_search<double>(markov_step(tie), 1, 1, bos, eos);
        const attn::ch08::Hypothesis beam = attn::ch08::beam_search<double>(markov_step(tie), 2, 1, bos, eos);
        CHECK(words(greedy.tokens) == "a");
        CHECK(words(beam.tokens) == "a");
        CHECK(beam.log_probability == doctest::Approx(std::log(0.4)).epsilon(1e-12));
    };
    PROPERTY("ties among many equal scores go to the smallest token id: a stable sort keeps the listed order") {
        // 40 tokens, every logit 0: every extension of the one row scores log(1/40). Beam 1
        // keeps the first of them, token 0, as greedy_decode's first largest would. (std::sort
        // orders up to 16 equal entries as listed, and more of them in any order.)
        const attn::ch08::BeamStep<double> uniform = [](const attn::IndexVector& previous, const std::vector<std::size_t>&) {
            return attn::constant<double>(xt::xarray<double>(xt::zeros<double>({previous.size(), std::size_t(40)})));
        };
        const attn::ch08::Hypothesis found = attn::ch08::beam_search<double>(uniform, 1, 1, bos, eos);
        CHECK(words(found.tokens) == "<bos>");   // token 0, the smallest id (here it is <bos>'s)
    };
    PROPERTY("a finished hypothesis takes one of the beam_size places: the beam is not refilled below them") {
        // Beam 2, length penalty 1 (so that the search goes on). Step 1: <eos> 0.5 and a 0.2999
        // are the best two; <eos> finishes, and step 2 extends a alone, not b (0.2, third).
        const Table early_end = {
            /* from <bos> */ {0.0001, 0.5, 0.2999, 0.2},
            /* from <eos> */ {0.25, 0.25, 0.25, 0.25},   // never asked for
            /* from a     */ {0.0001, 0.5, 0.2499, 0.25},
            /* from b     */ {0.0001, 0.5, 0.2499, 0.25}};
        std::vector<std::size_t> rows_per_step;
        const attn::ch08::BeamStep<double> counted = [&](const attn::IndexVector& previous,
                                                         const std::vector<std::size_t>&) {
            rows_per_step.push_back(previous.size());
            return markov_logits(early_end, previous);
        };
        (void)attn::ch08::beam_search<double>(counted, 2, 4, bos, eos, 1.0);
        REQUIRE(rows_per_step.size() >= 2);
        CHECK(rows_per_step[0] == 1);
        CHECK(rows_per_step[1] == 1);
    };
    PROPERTY("with length_penalty 1 hypotheses compare by total / length: 'b a <eos>' beats 'a <eos>'") {
        // Beam 2. Step 1: a 0.6, b 0.3998 stay alive. Step 2: b a 0.3998 * 0.9 = 0.3598 stays,
        //   a <eos> 0.6 * 0.5 = 0.3 finishes. Step 3: b a <eos> 0.3598 * 0.5 = 0.1799 finishes.
        // Penalty 0: log 0.3 = -1.204 beats log 0.1799 = -1.715, and the alive b a b (0.0899)
        //   cannot win: 'a <eos>'.
        // Penalty 1: -1.204 / 2 = -0.602 against -1.715 / 3 = -0.572: 'b a <eos>' is better, and
        //   the search goes on while an alive prefix could still reach more (total / 5^1 above
        //   -0.572): b a b at step 3 (-2.408 / 5 = -0.482), b a b a at step 4 (-2.514 / 5 = -0.503);
        //   at step 5 b a b a b's -3.900 / 5 = -0.780 cannot, and 'b a <eos>' is returned.
        const attn::ch08::Hypothesis raw = attn::ch08::beam_search<double>(markov_step(short_total), 2, 5, bos, eos);
        const attn::ch08::Hypothesis per_token =
            attn::ch08::beam_search<double>(markov_step(short_total), 2, 5, bos, eos, 1.0);
        CHECK(words(raw.tokens) == "a <eos>");
        CHECK(words(per_token.tokens) == "b a <eos>");
        CHECK(per_token.log_probability == doctest::Approx(std::log(0.3998 * 0.9 * 0.5)).epsilon(1e-12));
    };
    PROPERTY("with a length penalty the search goes on while a prefix could still win at max_len") {
        // Beam 2, max_len 4. Step 1: <eos> 0.55 finishes (log -0.598, length 1), a 0.4498 stays.
        // Penalty 0: a's total -0.799 is below -0.598 and can only fall: '<eos>'.
        // Penalty 1: a could still end as -0.799 / 4 = -0.200 > -0.598 (not -0.799 / 1, its
        //   length now), so the search goes on: a a, a a a, a a a a, each times 0.9498. At max_len
        //   a a a a counts as it is, log(0.4498 * 0.9498^3) / 4 = -0.238 > -0.598: it is returned.
        const attn::ch08::Hypothesis raw = attn::ch08::beam_search<double>(markov_step(long_run), 2, 4, bos, eos);
        const attn::ch08::Hypothesis per_token =
            attn::ch08::beam_search<double>(markov_step(long_run), 2, 4, bos, eos, 1.0);
        CHECK(words(raw.tokens) == "<eos>");
        CHECK(words(per_token.tokens) == "a a a a");
        CHECK(per_token.log_probability == doctest::Approx(std::log(0.4498 * std::pow(0.9498, 3))).epsilon(1e-12));
    };
    PROPERTY("a negative length_penalty is refused with std::invalid_argument") {
        CHECK_THROWS_AS(attn::ch08::beam_search<double>(markov_step(garden_path), 2, 5, bos, eos, -0.5),
                        std::invalid_argument);
    };
    PROPERTY("beam_size 0 or max_len 0 is refused with std::invalid_argument") {
        CHECK_THROWS_AS(attn::ch08::beam_search<double>(markov_step(garden_path), 0, 5, bos, eos), std::invalid_argument);
        CHECK_THROWS_AS(attn::ch08::beam_search<double>(markov_step(garden_path), 2, 0, bos, eos), std::invalid_argument);
    };
}
