// Rendering the toy grammar's sentences in French and in English (see toy_grammar.hpp).
// Introduced in chapter 01.
#include "common/data/toy_grammar.hpp"

#include "common/data/toy_lexicon.hpp"

namespace attn::data::toy {
namespace {

using Words = std::vector<std::string>;

void append(Words& words, const Words& more) { words.insert(words.end(), more.begin(), more.end()); }

bool starts_with_any(const std::string& word, const Words& prefixes) {
    for (const std::string& prefix : prefixes)
        if (word.rfind(prefix, 0) == 0) return true;
    return false;
}

// French elides before a vowel or a mute h (every h-word of the lexicon is mute).
bool french_vowel_sound(const std::string& word) {
    return starts_with_any(word, {"a", "e", "i", "o", "u", "y", "h", "à", "â", "é", "è", "ê", "î", "ô", "û", "œ"});
}

// English "an": a vowel letter that sounds like one ("an old", but "a european").
bool english_vowel_sound(const std::string& word) {
    return starts_with_any(word, {"a", "e", "i", "o", "u"}) && !starts_with_any(word, {"eu", "uni", "use", "one"});
}

bool is_plural(const NounPhrase& np) {
    if (np.fixed_phrase) return fixed_phrases()[*np.fixed_phrase].french[0] == "les";
    return determiners()[np.determiner].plural;
}

std::string french_adjective(const Adjective& a, Gender gender, bool plural, bool before_vowel) {
    if (plural) return gender == Gender::masculine ? a.masculine_plural : a.feminine_plural;
    if (gender == Gender::feminine) return a.feminine;
    return before_vowel && !a.masculine_before_vowel.empty() ? a.masculine_before_vowel : a.masculine;
}

// determiner [pre-adjective] noun post-adjectives, all agreeing with the noun
Words french_noun_phrase(const NounPhrase& np) {
    if (np.fixed_phrase) return fixed_phrases()[*np.fixed_phrase].french;
    const Noun& noun = nouns()[np.noun];
    const bool plural = is_plural(np);
    const std::string noun_form = plural ? noun.french_plural : noun.french;
    Words rest;   // everything after the determiner, which elides before it
    if (np.pre_adjective)
        rest.push_back(french_adjective(adjectives()[*np.pre_adjective], noun.gender, plural,
                                        french_vowel_sound(noun_form)));   // "un vieil arbre"
    rest.push_back(noun_form);
    for (std::size_t a : np.post_adjectives) rest.push_back(french_adjective(adjectives()[a], noun.gender, plural, false));
    const Determiner& d = determiners()[np.determiner];
    const bool elide = french_vowel_sound(rest[0]);
    const bool masculine = noun.gender == Gender::masculine;
    Words words = {masculine ? (elide ? d.masculine_before_vowel : d.masculine)
                             : (elide ? d.feminine_before_vowel : d.feminine)};
    append(words, rest);
    return words;
}

// determiner [pre-adjective] post-adjectives-mirrored noun: "zone économique européenne"
// becomes "european economic area", the adjective nearest the noun staying nearest.
Words english_noun_phrase(const NounPhrase& np) {
    if (np.fixed_phrase) return fixed_phrases()[*np.fixed_phrase].english;
    const Noun& noun = nouns()[np.noun];
    Words rest;
    if (np.pre_adjective) rest.push_back(adjectives()[*np.pre_adjective].english);
    for (auto a = np.post_adjectives.rbegin(); a != np.post_adjectives.rend(); ++a)
        rest.push_back(adjectives()[*a].english);
    rest.push_back(is_plural(np) ? noun.english_plural : noun.english);
    Words words = words_of(determiners()[np.determiner].english);
    if (words == Words{"a"} && english_vowel_sound(rest[0])) words = {"an"};
    append(words, rest);
    return words;
}

Words verb_phrase(const VerbPhrase& vp, bool plural_subject, bool french) {
    const Verb& verb = verbs()[vp.verb];
    Words words = french ? Words{plural_subject ? verb.french_plural : verb.french}
                         : words_of(plural_subject ? verb.english_plural : verb.english);
    if (vp.object) append(words, french ? french_noun_phrase(*vp.object) : english_noun_phrase(*vp.object));
    if (vp.adjunct) {
        const Translation& preposition = prepositions()[vp.adjunct->preposition];
        append(words, words_of(french ? preposition.french : preposition.english));
        const NounPhrase& np = vp.adjunct->noun_phrase;
        append(words, french ? french_noun_phrase(np) : english_noun_phrase(np));
    }
    return words;
}

Words clause_tokens(const Clause& clause, bool french) {
    const bool plural = is_plural(clause.subject);
    Words words = french ? french_noun_phrase(clause.subject) : english_noun_phrase(clause.subject);
    if (clause.relative) {
        const bool person = !clause.subject.fixed_phrase && nouns()[clause.subject.noun].kind == NounKind::person;
        words.push_back(french ? "qui" : person ? "who" : "that");
        append(words, verb_phrase(*clause.relative, plural, french));
    }
    append(words, verb_phrase(clause.predicate, plural, french));
    return words;
}

Words sentence_tokens(const Sentence& sentence, bool french) {
    Words words;
    for (std::size_t i = 0; i < sentence.clauses.size(); ++i) {
        const Words clause = clause_tokens(sentence.clauses[i], french);
        if (i > 0) {
            const Translation& conjunction = conjunctions()[sentence.conjunctions[i - 1]];
            Words joint = words_of(french ? conjunction.french : conjunction.english);
            const std::string& last = joint.back();
            // "parce que" + "un ami" -> "parce qu' un ami", "lorsque" -> "lorsqu'"
            if (french && last.size() >= 3 && last.compare(last.size() - 3, 3, "que") == 0 &&
                french_vowel_sound(clause[0]))
                joint.back() = last.substr(0, last.size() - 1) + "'";   // drop the final e
            append(words, joint);
        }
        append(words, clause);
    }
    return words;
}

}  // namespace

std::vector<std::string> french_tokens(const Sentence& sentence) { return sentence_tokens(sentence, true); }
std::vector<std::string> english_tokens(const Sentence& sentence) { return sentence_tokens(sentence, false); }

}  // namespace attn::data::toy
