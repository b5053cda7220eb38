// Random sentences of the toy grammar and the toy French->English corpus (see
// toy_translation.hpp). Introduced in chapter 01.
#include "common/data/toy_translation.hpp"

#include "common/data/tokenize.hpp"
#include "common/data/toy_lexicon.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_set>

namespace attn::data {

using namespace toy;   // this file builds the grammar's structures throughout

namespace {

// Lexicon indices by role, computed once.
struct Choices {
    std::vector<std::size_t> subject_nouns, things, all_nouns, pre_adjectives, post_adjectives, transitive, intransitive;
};

const Choices& choices() {
    static const Choices table = [] {
        Choices c;
        for (std::size_t i = 0; i < nouns().size(); ++i) {
            c.all_nouns.push_back(i);
            (nouns()[i].kind == NounKind::thing ? c.things : c.subject_nouns).push_back(i);
        }
        for (std::size_t i = 0; i < adjectives().size(); ++i)
            (adjectives()[i].before_noun ? c.pre_adjectives : c.post_adjectives).push_back(i);
        for (std::size_t i = 0; i < verbs().size(); ++i)
            (verbs()[i].transitive ? c.transitive : c.intransitive).push_back(i);
        return c;
    }();
    return table;
}

std::size_t pick(const std::vector<std::size_t>& options, Rng& rng) { return options[rng.below(options.size())]; }

// "determiner noun": two words
NounPhrase bare_noun_phrase(const std::vector<std::size_t>& nouns_to_use, Rng& rng) {
    NounPhrase np;
    np.determiner = rng.below(determiners().size());
    np.noun = pick(nouns_to_use, rng);
    return np;
}

// One way to make the sentence longer by `cost` French words, and where to do it.
enum class Step { adjective, object, adjunct, relative, fixed_phrase };
struct Growth {
    Step step;
    std::size_t cost;
    NounPhrase* np = nullptr;
    VerbPhrase* vp = nullptr;
    Clause* clause = nullptr;
    std::size_t fixed_phrase = 0;
};

void collect(std::vector<Growth>& out, NounPhrase& np, bool may_be_fixed, Rng& rng) {
    if (np.fixed_phrase) return;
    const std::size_t n_adjectives = (np.pre_adjective ? 1 : 0) + np.post_adjectives.size();
    if (n_adjectives < 2) out.push_back(Growth{Step::adjective, 1, &np});
    if (may_be_fixed && n_adjectives == 0) {
        const std::size_t phrase = rng.below(fixed_phrases().size());
        out.push_back(Growth{Step::fixed_phrase, fixed_phrases()[phrase].french.size() - 2, &np, nullptr, nullptr, phrase});
    }
}

void collect(std::vector<Growth>& out, VerbPhrase& vp, Rng& rng) {
    if (vp.object) collect(out, *vp.object, true, rng);
    else out.push_back(Growth{Step::object, 2, nullptr, &vp});
    if (vp.adjunct) collect(out, vp.adjunct->noun_phrase, true, rng);
    else out.push_back(Growth{Step::adjunct, 3, nullptr, &vp});
}

void add_adjective(NounPhrase& np, Rng& rng) {
    if (!np.pre_adjective && rng.uniform() < 0.3) {
        np.pre_adjective = pick(choices().pre_adjectives, rng);
        return;
    }
    std::size_t adjective = pick(choices().post_adjectives, rng);
    while (std::find(np.post_adjectives.begin(), np.post_adjectives.end(), adjective) != np.post_adjectives.end())
        adjective = pick(choices().post_adjectives, rng);   // never "rouge rouge"
    np.post_adjectives.push_back(adjective);
}

void apply(const Growth& growth, Rng& rng) {
    switch (growth.step) {
        case Step::adjective: add_adjective(*growth.np, rng); break;
        case Step::fixed_phrase: growth.np->fixed_phrase = growth.fixed_phrase; break;
        case Step::object:
            growth.vp->verb = pick(choices().transitive, rng);
            growth.vp->object = bare_noun_phrase(choices().all_nouns, rng);
            break;
        case Step::adjunct:
            growth.vp->adjunct = PrepositionalPhrase{rng.below(prepositions().size()),   // "in the house"
                                                     bare_noun_phrase(choices().things, rng)};
            break;
        case Step::relative: growth.clause->relative = VerbPhrase{pick(choices().intransitive, rng), {}, {}}; break;
    }
}

// Weights of the steps: structure (objects, phrases, relatives) more often than fixed phrases.
double weight(Step step) { return step == Step::fixed_phrase ? 0.5 : step == Step::adjective ? 3.0 : 2.0; }

// Grows the sentence by random steps that fit in `remaining` words, until none is left.
void grow(Sentence& sentence, std::size_t remaining, Rng& rng) {
    while (remaining > 0) {
        std::vector<Growth> options, fitting;
        for (Clause& clause : sentence.clauses) {
            collect(options, clause.subject, false, rng);   // subjects stay people or animals
            if (clause.relative) collect(options, *clause.relative, rng);
            else options.push_back(Growth{Step::relative, 2, nullptr, nullptr, &clause});
            collect(options, clause.predicate, rng);
        }
        double total = 0;
        for (const Growth& g : options) {
            if (g.cost > remaining) continue;
            fitting.push_back(g);
            total += weight(g.step);
        }
        if (fitting.empty()) return;
        std::size_t chosen = 0;   // drawn with probability weight / total
        for (double r = rng.uniform() * total; chosen + 1 < fitting.size(); ++chosen) {
            r -= weight(fitting[chosen].step);
            if (r < 0) break;
        }
        apply(fitting[chosen], rng);
        remaining -= fitting[chosen].cost;
    }
}

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

}  // namespace

toy::Sentence random_toy_sentence(std::size_t length, Rng& rng) {
    if (length < toy_min_length || length > toy_max_length)
        throw std::invalid_argument("random_toy_sentence: length " + std::to_string(length) + " is outside 3..40");
    // A clause holds 3 to about 19 words; between 8 and 14 words per clause reads naturally.
    const std::size_t most = std::max<std::size_t>(1, std::min(ceil_div(length, 8), (length + 2) / 5));
    const std::size_t fewest = std::min(ceil_div(length, 14), most);
    const std::size_t n_clauses = fewest + rng.below(most - fewest + 1);
    Sentence sentence;
    std::size_t words = 0;
    for (std::size_t i = 0; i < n_clauses; ++i) {
        if (i > 0) {
            const std::size_t conjunction = rng.below(conjunctions().size());
            const std::size_t cost = words_of(conjunctions()[conjunction].french).size();
            if (words + cost + 3 > length) break;
            sentence.conjunctions.push_back(conjunction);
            words += cost;
        }
        NounPhrase subject = bare_noun_phrase(choices().subject_nouns, rng);
        sentence.clauses.push_back(Clause{subject, {}, VerbPhrase{pick(choices().intransitive, rng), {}, {}}});
        words += 3;   // "le chat dort"
    }
    grow(sentence, length - words, rng);
    return sentence;
}

namespace {

// `n` pairs whose French sentence is not in `seen` (and is added to it).
std::vector<Pair> distinct_pairs(std::size_t n, Rng& rng, std::unordered_set<std::string>& seen) {
    std::vector<Pair> pairs;
    for (std::size_t attempt = 0; pairs.size() < n; ++attempt) {
        if (attempt > 20 * n + 1000)
            throw std::runtime_error("make_toy_translation_corpus: cannot find " + std::to_string(n) +
                                     " distinct sentences; ask for fewer");
        const std::size_t length = toy_min_length + rng.below(toy_max_length - toy_min_length + 1);
        const Sentence sentence = random_toy_sentence(length, rng);
        std::vector<std::string> french = french_tokens(sentence);
        if (seen.insert(join_tokens(french, " ")).second) pairs.push_back(Pair{french, english_tokens(sentence)});
    }
    return pairs;
}

}  // namespace

Corpus make_toy_translation_corpus(const SplitSizes& sizes, std::uint64_t seed) {
    Rng rng(seed);
    std::unordered_set<std::string> seen;   // French sentences already used, across all splits
    Corpus corpus;
    corpus.level = TokenLevel::word;
    corpus.test = distinct_pairs(sizes.test, rng, seen);
    corpus.validation = distinct_pairs(sizes.validation, rng, seen);
    corpus.train = distinct_pairs(sizes.train, rng, seen);
    corpus.description = "toy French->English grammar, word level, 3-40 French words; " +
                         std::to_string(sizes.train) + " train / " + std::to_string(sizes.validation) +
                         " validation / " + std::to_string(sizes.test) + " test, no French sentence in two splits";
    return corpus;
}

}  // namespace attn::data
