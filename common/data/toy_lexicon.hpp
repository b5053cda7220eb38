// The lexicon of the toy French->English grammar: nouns with gender, adjectives with their
// four French forms and their side of the noun, verbs in the present tense, determiners,
// prepositions, conjunctions and fixed phrases. toy_grammar.hpp puts them together.
// Introduced in chapter 01.
#pragma once
#include <string>
#include <vector>

namespace attn::data::toy {

enum class Gender { masculine, feminine };
enum class NounKind { person, animal, thing };   // subjects are people or animals

struct Noun {
    std::string french, french_plural;
    Gender gender;
    std::string english, english_plural;
    NounKind kind;
};

// French forms by gender and number. `before_noun` adjectives (grand, petit, vieux, ...)
// precede the noun in French too; the others follow it. In English all precede the noun.
struct Adjective {
    std::string masculine, feminine, masculine_plural, feminine_plural;
    std::string english;
    bool before_noun = false;
    std::string masculine_before_vowel;   // "vieil", "bel", "nouvel"; empty: same as masculine
};

// Third person present tense. English may take two words ("looks for").
struct Verb {
    std::string french, french_plural;
    std::string english, english_plural;
    bool transitive;
};

// French forms by gender; the `before_vowel` forms are the elided ones ("l'", "cet", "mon").
struct Determiner {
    std::string masculine, feminine, masculine_before_vowel, feminine_before_vowel;
    std::string english;   // "a" becomes "an" before a vowel sound in English
    bool plural;
};

// A French word (or words) and its English translation.
struct Translation {
    std::string french, english;
};

// A noun phrase that is translated as a whole, with its own order:
// "la zone économique européenne" -> "the european economic area".
struct FixedPhrase {
    std::vector<std::string> french, english;
};

const std::vector<Noun>& nouns();
const std::vector<Adjective>& adjectives();
const std::vector<Verb>& verbs();
const std::vector<Determiner>& determiners();
const std::vector<Translation>& prepositions();   // "devant" -> "in front of"
const std::vector<Translation>& conjunctions();   // "parce que" -> "because"
const std::vector<FixedPhrase>& fixed_phrases();

// The words of a lexicon entry, split at spaces: "looks for" -> {"looks", "for"}; "" -> {}.
std::vector<std::string> words_of(const std::string& text);

// Every word type the grammar can produce on each side (sorted, no duplicates), counted
// in common/data/README.md.
std::vector<std::string> french_words();
std::vector<std::string> english_words();

}  // namespace attn::data::toy
