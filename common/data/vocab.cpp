// Vocabularies (see vocab.hpp). Introduced in chapter 01.
#include "common/data/vocab.hpp"

#include "common/data/tokenize.hpp"
#include "common/files.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <utility>

namespace attn::data {

const std::vector<std::string>& special_tokens() {
    static const std::vector<std::string> specials = {"<pad>", "<bos>", "<eos>", "<unk>"};
    return specials;
}

Vocab::Vocab() {
    for (const std::string& special : special_tokens()) add(special);
}

void Vocab::add(const std::string& token) {
    ids_.emplace(token, static_cast<std::int64_t>(tokens_.size()));
    tokens_.push_back(token);
}

Vocab Vocab::build(const std::vector<std::vector<std::string>>& sentences, std::size_t min_freq) {
    std::unordered_map<std::string, std::size_t> counts;
    for (const std::vector<std::string>& sentence : sentences)
        for (const std::string& token : sentence) ++counts[token];
    using TokenCount = std::pair<std::string, std::size_t>;
    std::vector<TokenCount> ranked(counts.begin(), counts.end());
    // Frequency first; the token itself breaks ties, since hash-map order is not portable.
    std::sort(ranked.begin(), ranked.end(), [](const TokenCount& a, const TokenCount& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    Vocab vocab;
    for (const auto& [token, count] : ranked)
        if (count >= min_freq && !vocab.contains(token)) vocab.add(token);   // specials keep their ids
    return vocab;
}

std::int64_t Vocab::id(const std::string& token) const {
    const auto found = ids_.find(token);
    return found == ids_.end() ? unk_id : found->second;
}

const std::string& Vocab::token(std::int64_t id) const {
    if (id < 0 || id >= static_cast<std::int64_t>(tokens_.size()))
        throw std::out_of_range("Vocab::token: id " + std::to_string(id) + " is outside 0.." +
                                std::to_string(tokens_.size() - 1));
    return tokens_[static_cast<std::size_t>(id)];
}

bool Vocab::contains(const std::string& token) const { return ids_.count(token) > 0; }
std::size_t Vocab::size() const { return tokens_.size(); }
const std::vector<std::string>& Vocab::tokens() const { return tokens_; }

std::vector<std::int64_t> Vocab::encode(const std::vector<std::string>& tokens) const {
    std::vector<std::int64_t> ids;
    ids.reserve(tokens.size());
    for (const std::string& token : tokens) ids.push_back(id(token));
    return ids;
}

std::vector<std::string> Vocab::decode(const std::vector<std::int64_t>& ids) const {
    std::vector<std::string> tokens;
    for (std::int64_t id : ids) {
        if (id == eos_id) break;
        if (id == pad_id || id == bos_id) continue;
        tokens.push_back(token(id));
    }
    return tokens;
}

std::string Vocab::text() const {
    std::string text;
    for (const std::string& token : tokens_) {
        if (token.empty() || token.find_first_of("\r\n") != std::string::npos)
            throw std::invalid_argument("Vocab: token " + std::to_string(ids_.at(token)) + " cannot be stored on one line");
        text += token + "\n";
    }
    return text;
}

void Vocab::save(const std::filesystem::path& path) const {
    std::string contents;
    try {
        contents = text();
    } catch (const std::invalid_argument& error) {
        throw std::invalid_argument("Vocab::save: " + path.string() + ": " + (error.what() + 7));   // drop "Vocab: "
    }
    attn::write_text_atomically(path, contents);
}

namespace {

// What is wrong with line `number` (1-based) of a vocabulary file, or nullopt.
std::optional<std::string> line_problem(const std::string& line, std::size_t number, const Vocab& so_far) {
    if (const std::optional<std::string> problem = utf8_problem(line)) return *problem;
    if (number <= special_tokens().size() && line != special_tokens()[number - 1])
        return "expected the special token " + special_tokens()[number - 1] + " here";
    if (line.empty()) return "empty token";
    if (number > special_tokens().size() && so_far.contains(line))
        return "duplicate token (first on line " + std::to_string(so_far.id(line) + 1) + ")";
    return std::nullopt;
}

}  // namespace

Vocab Vocab::load(const std::filesystem::path& path) {
    const std::string text = attn::read_text(path);   // throws "path: cannot open ..."
    if (text.empty()) throw std::runtime_error(path.string() + ": the vocabulary file is empty");
    Vocab vocab;
    std::size_t number = 0;
    for (std::size_t start = 0; start < text.size();) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.pop_back();   // written on Windows
        start = end + 1;
        ++number;
        if (const std::optional<std::string> problem = line_problem(line, number, vocab))
            throw std::runtime_error(path.string() + ":" + std::to_string(number) + ": " + *problem);
        if (number > special_tokens().size()) vocab.add(line);
    }
    if (number < special_tokens().size())
        throw std::runtime_error(path.string() + ": the file ends before the four special tokens");
    return vocab;
}

}  // namespace attn::data
