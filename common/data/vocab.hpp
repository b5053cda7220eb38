// Vocabularies: the map between tokens (strings) and the integer ids a model embeds.
// Four special tokens come first in every vocabulary. Introduced in chapter 01.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <unordered_map>
#include <vector>

namespace attn::data {

// The special tokens and their ids, the same in every vocabulary.
constexpr std::int64_t pad_id = 0;   // "<pad>": fills a batch row after its valid length
constexpr std::int64_t bos_id = 1;   // "<bos>": the decoder's first input
constexpr std::int64_t eos_id = 2;   // "<eos>": the decoder's last output; decoding stops there
constexpr std::int64_t unk_id = 3;   // "<unk>": any token the vocabulary does not know
const std::vector<std::string>& special_tokens();   // {"<pad>", "<bos>", "<eos>", "<unk>"}

class Vocab {
public:
    // Only the four special tokens.
    Vocab();

    // The specials, then every token seen at least `min_freq` times (0 and 1 keep all),
    // most frequent first, ties in byte order of the token, so the ids are reproducible.
    static Vocab build(const std::vector<std::vector<std::string>>& sentences, std::size_t min_freq = 1);

    // The id of `token`, or unk_id if the vocabulary does not hold it.
    std::int64_t id(const std::string& token) const;
    // The token of `id`; throws std::out_of_range naming the id and the valid range.
    const std::string& token(std::int64_t id) const;
    bool contains(const std::string& token) const;
    std::size_t size() const;
    const std::vector<std::string>& tokens() const;   // in id order, specials first

    std::vector<std::int64_t> encode(const std::vector<std::string>& tokens) const;
    // Ids back to tokens: stops at the first <eos>, skips <pad> and <bos>. An <unk> stays
    // "<unk>", so a BLEU score counts it as the miss it is.
    std::vector<std::string> decode(const std::vector<std::int64_t>& ids) const;

    // One token per line, UTF-8, in id order (atomic write). Throws std::invalid_argument
    // if a token cannot be stored on one line (empty, or holds '\n' or '\r').
    void save(const std::filesystem::path& path) const;
    // What save() writes, as a string (to put in a checkpoint without a scratch file).
    std::string text() const;
    // Reads what save() wrote; throws std::runtime_error "path:LINE: what is wrong" on a bad
    // line (wrong special, empty or duplicate token, invalid UTF-8) and "path: ..." when the
    // file cannot be read or is empty.
    static Vocab load(const std::filesystem::path& path);

private:
    void add(const std::string& token);

    std::vector<std::string> tokens_;
    std::unordered_map<std::string, std::int64_t> ids_;
};

}  // namespace attn::data
