// Helpers over parallel corpora (see corpus.hpp). Introduced in chapter 01.
#include "common/data/corpus.hpp"

#include "common/data/tokenize.hpp"

namespace attn::data {

std::vector<std::vector<std::string>> source_sentences(const std::vector<Pair>& pairs) {
    std::vector<std::vector<std::string>> sentences;
    sentences.reserve(pairs.size());
    for (const Pair& pair : pairs) sentences.push_back(pair.source);
    return sentences;
}

std::vector<std::vector<std::string>> target_sentences(const std::vector<Pair>& pairs) {
    std::vector<std::vector<std::string>> sentences;
    sentences.reserve(pairs.size());
    for (const Pair& pair : pairs) sentences.push_back(pair.target);
    return sentences;
}

std::string detokenize(const std::vector<std::string>& tokens, TokenLevel level) {
    return join_tokens(tokens, level == TokenLevel::character ? "" : " ");
}

}  // namespace attn::data
