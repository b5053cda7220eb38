// Your own corpus: tab-separated parallel text in the Tatoeba/Anki format, one pair a line:
//   source <TAB> target [<TAB> extra columns, ignored]
// read, validated, normalised, tokenised, filtered by length and split. Used by the
// chapters' --data flag; introduced in chapter 01.
//
// Errors are std::runtime_error with a one-line message that names the file:
//   "path:LINE: no tab between source and target ..."   (also: empty source or target
//                                                        sentence, invalid UTF-8 at byte N)
//   "path: the file has no sentence pairs"              (empty, or only blank lines)
//   "path: cannot open the file: it does not exist"     (or: it is a folder, no permission)
#pragma once
#include "common/data/corpus.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>

namespace attn::data {

// The fewest distinct source sentences read_tsv_corpus accepts: one for each split.
constexpr std::size_t min_distinct_sources = 3;

struct TsvOptions {
    TokenLevel level = TokenLevel::word;
    std::size_t max_len = 40;            // pairs with more tokens on either side are dropped; 0: keep all
    bool lowercase = true;               // character level; the word level always lower-cases
    double validation_fraction = 0.05;   // of the distinct source sentences
    double test_fraction = 0.05;
    std::uint64_t seed = 0;              // for the split
    bool swap_columns = false;           // target<TAB>source: Anki's fra.txt has English first
};

// Every pair of the file in file order: each side normalised (normalize_text), tokenised
// (split_words, or split_code_points after optional lower-casing), and kept when both
// sides have at most max_len tokens. Blank lines are skipped; a UTF-8 byte-order mark and
// Windows line ends are accepted. Throws std::runtime_error as described above, also
// "path: no sentence pair has at most N tokens per side" when the filter keeps nothing.
// `left_out`, when given, receives the number of pairs the filter dropped.
std::vector<Pair> read_tsv_pairs(const std::filesystem::path& path, const TsvOptions& options = {},
                                 std::size_t* left_out = nullptr);

// read_tsv_pairs, then a split by distinct source sentence: the sources are shuffled with
// the seed and the first test_fraction of them (rounded, but at least one unless the
// fraction is 0) go to test, the next validation_fraction to validation, the rest to
// training, each split in file order. Fewer than min_distinct_sources sources is an error
// that says how many are needed. Every
// pair of a source goes where its source goes, so no test source is seen in training (Tatoeba
// often has one source with several translations). Throws std::invalid_argument on bad
// fractions, std::runtime_error when no pair is left for training.
Corpus read_tsv_corpus(const std::filesystem::path& path, const TsvOptions& options = {});

}  // namespace attn::data
