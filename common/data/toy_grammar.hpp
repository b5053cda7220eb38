// The toy French->English grammar: the structure of a sentence, and its rendering in each
// language. The English sentence is a function of the French structure, and every French
// sentence has one structure, so a perfect translator exists. Introduced in chapter 01.
//
//   sentence     = clause (conjunction clause)*            "et" / "and", "parce que" / "because"
//   clause       = noun_phrase [relative] verb_phrase      subject; the verb agrees in number
//   relative     = "qui" verb_phrase                       "who" (people) / "that" (animals)
//   verb_phrase  = verb [noun_phrase] [preposition noun_phrase]
//   noun_phrase  = French:  determiner [adjective_pre] noun adjective_post*
//                  English: determiner [adjective_pre] adjective_post* (mirrored) noun
//                  or a fixed phrase ("la zone économique européenne" -> "the european economic area")
// At most two adjectives per noun phrase; French determiners and adjectives agree with the
// noun in gender and number ("les grandes maisons rouges" -> "the big red houses").
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace attn::data::toy {

// Indices into the tables of toy_lexicon.hpp.
struct NounPhrase {
    std::size_t determiner = 0;
    std::size_t noun = 0;
    std::optional<std::size_t> pre_adjective;    // one that goes before the noun in French
    std::vector<std::size_t> post_adjectives;    // in French order, after the noun
    std::optional<std::size_t> fixed_phrase;     // if set, the phrase replaces all of the above
};

struct PrepositionalPhrase {
    std::size_t preposition = 0;
    NounPhrase noun_phrase;
};

struct VerbPhrase {
    std::size_t verb = 0;
    std::optional<NounPhrase> object;            // present exactly when the verb is transitive
    std::optional<PrepositionalPhrase> adjunct;
};

struct Clause {
    NounPhrase subject;                          // a person or an animal
    std::optional<VerbPhrase> relative;          // "le chat qui dort ..."
    VerbPhrase predicate;
};

struct Sentence {
    std::vector<Clause> clauses;
    std::vector<std::size_t> conjunctions;       // conjunctions[i] joins clauses i and i + 1
};

// The sentence's words in each language.
std::vector<std::string> french_tokens(const Sentence& sentence);
std::vector<std::string> english_tokens(const Sentence& sentence);

}  // namespace attn::data::toy
