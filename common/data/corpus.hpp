// A parallel corpus: tokenised (source, target) pairs split into train, validation and
// test sets. Every data set in common/data returns one. Introduced in chapter 01.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace attn::data {

// Character level means Unicode code points (docs/design.md, "Text is Unicode code points");
// word level means words and punctuation marks.
enum class TokenLevel { character, word };

struct Pair {
    std::vector<std::string> source;
    std::vector<std::string> target;
};

// How many pairs each split holds (a struct, so the three sizes cannot be swapped silently).
struct SplitSizes {
    std::size_t train = 0;
    std::size_t validation = 0;
    std::size_t test = 0;
};

struct Corpus {
    std::vector<Pair> train, validation, test;
    TokenLevel level = TokenLevel::word;
    std::string description;   // one line: what the data is, its sizes and how it was split
};

// The source (or target) sides of `pairs`, ready for Vocab::build.
std::vector<std::vector<std::string>> source_sentences(const std::vector<Pair>& pairs);
std::vector<std::vector<std::string>> target_sentences(const std::vector<Pair>& pairs);

// Tokens back to readable text: joined with "" at the character level, " " at the word level.
std::string detokenize(const std::vector<std::string>& tokens, TokenLevel level);

}  // namespace attn::data
