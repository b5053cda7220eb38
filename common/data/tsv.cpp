// Reading tab-separated parallel text (see tsv.hpp). Introduced in chapter 01.
#include "common/data/tsv.hpp"

#include "common/data/tokenize.hpp"
#include "common/files.hpp"
#include "common/random.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace attn::data {
namespace {

std::runtime_error file_error(const std::filesystem::path& path, const std::string& problem) {
    return std::runtime_error(path.string() + ": " + problem);
}

std::runtime_error line_error(const std::filesystem::path& path, std::size_t line, const std::string& problem) {
    return std::runtime_error(path.string() + ":" + std::to_string(line) + ": " + problem);
}

std::string read_whole_file(const std::filesystem::path& path) {
    // "path: cannot open the file: it does not exist" (or: it is a folder, not a regular file)
    std::string text = attn::read_text(path);
    if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);   // byte-order mark (Windows editors)
    // Line ends: "\r\n" (Windows) and a lone "\r" (classic Mac OS) both become "\n".
    std::string lines;
    lines.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\r') lines += text[i];
        else if (i + 1 == text.size() || text[i + 1] != '\n') lines += '\n';
    }
    return lines;
}

bool is_blank(const std::string& line) { return line.find_first_not_of(" \t\r\v\f") == std::string::npos; }

std::vector<std::string> tokenize(const std::string& text, const TsvOptions& options) {
    if (options.level == TokenLevel::word) return split_words(text);
    return split_code_points(options.lowercase ? to_lower(text) : text);
}

// One non-blank line -> a pair, or an error naming the line.
Pair parse_line(const std::string& line, const std::filesystem::path& path, std::size_t number,
                const TsvOptions& options) {
    if (const std::optional<std::string> problem = utf8_problem(line)) throw line_error(path, number, *problem);
    const std::size_t tab = line.find('\t');
    if (tab == std::string::npos)
        throw line_error(path, number, "no tab between source and target (expected source<TAB>target)");
    const std::size_t end = line.find('\t', tab + 1);   // extra columns (license, ids) are ignored
    const std::string first = normalize_text(line.substr(0, tab));
    const std::string second = normalize_text(line.substr(tab + 1, end == std::string::npos ? end : end - tab - 1));
    if (first.empty())
        throw line_error(path, number, std::string("empty ") + (options.swap_columns ? "target" : "source") +
                                           " sentence (column 1, before the first tab)");
    if (second.empty())
        throw line_error(path, number, std::string("empty ") + (options.swap_columns ? "source" : "target") +
                                           " sentence (column 2, after the first tab)");
    if (options.swap_columns) return Pair{tokenize(second, options), tokenize(first, options)};
    return Pair{tokenize(first, options), tokenize(second, options)};
}

}  // namespace

std::vector<Pair> read_tsv_pairs(const std::filesystem::path& path, const TsvOptions& options, std::size_t* left_out) {
    const std::string text = read_whole_file(path);
    std::vector<Pair> kept;
    std::size_t n_read = 0, number = 0;
    for (std::size_t start = 0; start < text.size();) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(start, end - start);
        start = end + 1;
        ++number;
        if (is_blank(line)) continue;
        Pair pair = parse_line(line, path, number, options);
        ++n_read;
        const bool fits = options.max_len == 0 ||
                          (pair.source.size() <= options.max_len && pair.target.size() <= options.max_len);
        if (fits) kept.push_back(std::move(pair));
    }
    if (left_out != nullptr) *left_out = n_read - kept.size();
    if (n_read == 0) throw file_error(path, "the file has no sentence pairs");
    if (kept.empty())
        throw file_error(path, "no sentence pair has at most " + std::to_string(options.max_len) + " tokens per side (" +
                                   std::to_string(n_read) + " pairs read): the chapters train on sentences up to that length, so split longer "
                                   "ones into several lines");
    return kept;
}

namespace {

enum class Split { train, validation, test };

// The split of each pair: the distinct sources are shuffled and cut by the fractions, and
// each pair goes with its source.
std::vector<Split> assign_splits(const std::vector<Pair>& pairs, const TsvOptions& options) {
    std::unordered_map<std::string, std::size_t> source_ids;   // numbered in order of appearance
    std::vector<std::size_t> source_of(pairs.size());
    for (std::size_t i = 0; i < pairs.size(); ++i)
        source_of[i] = source_ids.emplace(join_tokens(pairs[i].source, "\t"), source_ids.size()).first->second;
    const std::size_t n_sources = source_ids.size();
    if (n_sources < min_distinct_sources)
        throw std::runtime_error(std::to_string(n_sources) + " distinct source sentences; at least " +
                                 std::to_string(min_distinct_sources) +
                                 " are needed (one each for training, validation and test), and hundreds to learn anything");
    // A small corpus still gets one validation and one test source, so neither split is empty.
    const auto held_out = [&](double fraction) {
        return fraction == 0 ? 0 : std::max<std::size_t>(1, static_cast<std::size_t>(std::round(fraction * n_sources)));
    };
    const std::size_t n_test = held_out(options.test_fraction), n_validation = held_out(options.validation_fraction);
    Rng rng(options.seed);
    const std::vector<std::size_t> order = rng.permutation(n_sources);
    std::vector<Split> source_split(n_sources, Split::train);
    for (std::size_t k = 0; k < n_test + n_validation && k < n_sources; ++k)
        source_split[order[k]] = k < n_test ? Split::test : Split::validation;
    std::vector<Split> splits;
    for (std::size_t source : source_of) splits.push_back(source_split[source]);
    return splits;
}

}  // namespace

Corpus read_tsv_corpus(const std::filesystem::path& path, const TsvOptions& options) {
    const double held_out = options.validation_fraction + options.test_fraction;
    if (options.validation_fraction < 0 || options.test_fraction < 0 || !(held_out < 1))
        throw std::invalid_argument("read_tsv_corpus: validation and test fractions must be >= 0 with a sum below 1");
    std::size_t too_long = 0;
    const std::vector<Pair> pairs = read_tsv_pairs(path, options, &too_long);
    std::vector<Split> splits;
    try {
        splits = assign_splits(pairs, options);
    } catch (const std::runtime_error& error) {
        throw file_error(path, error.what());
    }
    Corpus corpus;
    corpus.level = options.level;
    for (std::size_t i = 0; i < pairs.size(); ++i)
        (splits[i] == Split::train ? corpus.train : splits[i] == Split::validation ? corpus.validation : corpus.test)
            .push_back(pairs[i]);
    if (corpus.train.empty()) throw file_error(path, "too few sentence pairs to leave any for training");
    const std::string lengths =
        options.max_len == 0 ? "any length" : "at most " + std::to_string(options.max_len) + " tokens per side";
    const std::string left_out =
        too_long == 0 ? "" : " (" + std::to_string(too_long) + (too_long == 1 ? " longer pair" : " longer pairs") + " left out)";
    corpus.description = path.filename().string() + ": " + std::to_string(pairs.size()) + " pairs" + left_out + ", " +
                         (options.level == TokenLevel::word ? "word" : "character") + " level, " + lengths + "; " +
                         std::to_string(corpus.train.size()) + " train / " + std::to_string(corpus.validation.size()) +
                         " validation / " + std::to_string(corpus.test.size()) + " test, split by source sentence";
    return corpus;
}

}  // namespace attn::data
