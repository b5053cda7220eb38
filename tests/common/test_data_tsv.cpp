// Tab-separated parallel text: reading tests/data/common/sample.tsv, the split by source
// sentence, and a one-line "file:LINE: problem" error for each kind of bad input.
#include "common/data/tsv.hpp"

#include "common/data/tokenize.hpp"
#include "tests/support/gradients.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

using namespace attn::data;
using Tokens = std::vector<std::string>;

namespace {

// A file in the temp folder that is deleted when the test ends.
struct TempFile {
    std::filesystem::path path;
    TempFile(const std::string& name, const std::string& contents)
        : path(std::filesystem::temp_directory_path() / (name + "." + std::to_string(::getpid()) + ".tsv")) {
        std::ofstream(path, std::ios::binary) << contents;
    }
    ~TempFile() { std::filesystem::remove(path); }
};

// The message of the std::runtime_error that reading `path` throws, or "" if none.
std::string read_error(const std::filesystem::path& path) {
    try {
        read_tsv_corpus(path);
    } catch (const std::runtime_error& error) {
        return error.what();
    }
    return "";
}

TsvOptions all_in_file_order(TokenLevel level) {
    TsvOptions options;
    options.level = level;
    options.max_len = 12;
    return options;
}

}  // namespace

TEST_CASE("data: sample.tsv reads into normalised, tokenised pairs" * doctest::test_suite("common")) {
    const std::string sample = support::data_path("common/sample.tsv");
    const std::vector<Pair> words = read_tsv_pairs(sample, all_in_file_order(TokenLevel::word));
    REQUIRE(words.size() == 12);   // 14 lines: one blank, one longer than 12 words
    SUBCASE("word level: punctuation split off, extra columns ignored, no-break spaces are spaces") {
        CHECK(words[0].source == Tokens{"go", "."});
        CHECK(words[0].target == Tokens{"va", "!"});   // "Va" U+00A0 "!", then a licence column
        CHECK(words[1].target == Tokens{"salut", "!"});   // U+202F narrow no-break space
        CHECK(words[6].source == Tokens{"don't", "worry", "."});   // curly apostrophe
        CHECK(words[8].target == Tokens{"à", "demain", "!"});   // two extra columns
        CHECK(words[11].source == Tokens{"happy", "birthday", ",", "émilie", "!"});
    }
    SUBCASE("character level: code points, lower-cased unless asked not to") {
        TsvOptions options = all_in_file_order(TokenLevel::character);
        options.max_len = 40;
        const std::vector<Pair> chars = read_tsv_pairs(sample, options);
        CHECK(chars[0].target == Tokens{"v", "a", " ", "!"});
        CHECK(chars[10].target.size() == 10);   // 私は緑茶が好きです。
        options.lowercase = false;
        CHECK(read_tsv_pairs(sample, options)[11].target[0] == "J");
    }
    SUBCASE("swap_columns reads target<TAB>source") {
        TsvOptions options = all_in_file_order(TokenLevel::word);
        options.swap_columns = true;
        CHECK(read_tsv_pairs(sample, options)[4].source == Tokens{"le", "chat", "dort", "."});
    }
    SUBCASE("max_len 0 keeps the long pair") {
        TsvOptions options = all_in_file_order(TokenLevel::word);
        options.max_len = 0;
        CHECK(read_tsv_pairs(sample, options).size() == 13);
    }
}

TEST_CASE("data: read_tsv_corpus splits by source sentence, deterministically" * doctest::test_suite("common")) {
    const std::string sample = support::data_path("common/sample.tsv");
    TsvOptions options;
    options.validation_fraction = 0.25;
    options.test_fraction = 0.25;
    options.seed = 3;
    const Corpus corpus = read_tsv_corpus(sample, options);
    // 13 pairs with 12 distinct sources: round(0.25 * 12) = 3 sources go to test, 3 to validation
    CHECK(corpus.train.size() + corpus.validation.size() + corpus.test.size() == 13);
    CHECK(corpus.train.size() >= 6);
    std::set<Tokens> train_sources;
    for (const Pair& pair : corpus.train) train_sources.insert(pair.source);
    std::size_t leaks = 0;
    for (const std::vector<Pair>* held_out : {&corpus.validation, &corpus.test})
        for (const Pair& pair : *held_out) leaks += train_sources.count(pair.source);
    CHECK(leaks == 0);   // "The cat is sleeping." has two targets; both go to the same split
    const Corpus again = read_tsv_corpus(sample, options);
    CHECK(again.test.front().source == corpus.test.front().source);
    CHECK(again.description == corpus.description);
    options.validation_fraction = 0.6;
    options.test_fraction = 0.5;
    CHECK_THROWS_AS(read_tsv_corpus(sample, options), std::invalid_argument);
}

TEST_CASE("data: a tiny corpus keeps one pair in each split, or says how many are needed" * doctest::test_suite("common")) {
    const TempFile three("attn_three_tsv", "a\tx\nb\ty\nc\tz\n");
    const Corpus corpus = read_tsv_corpus(three.path);   // round(0.05 * 3) = 0, raised to 1
    CHECK(corpus.train.size() == 1);
    CHECK(corpus.validation.size() == 1);
    CHECK(corpus.test.size() == 1);
    const TempFile two("attn_two_tsv", "a\tx\nb\ty\na\tw\n");   // three pairs, two distinct sources
    CHECK(read_error(two.path) == two.path.string() + ": 2 distinct source sentences; at least 3 are needed (one each for "
                                                      "training, validation and test), and hundreds to learn anything");
    TsvOptions no_validation;
    no_validation.validation_fraction = 0;
    CHECK(read_tsv_corpus(three.path, no_validation).validation.empty());   // a fraction of 0 stays 0
}

TEST_CASE("data: a malformed TSV line is a one-line error naming file:LINE" * doctest::test_suite("common")) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"a\tb\nno tab here\n", ":2: no tab between source and target"},
        {"a\tb\n\n\tb\n", ":3: empty source sentence"},            // the blank line 2 is skipped but counted
        {"a\tb\nsource\t   \textra\n", ":2: empty target sentence"},
        {"ok\tfine\nbad \xFF\tx\n", ":2: invalid UTF-8 at byte 4"},
    };
    for (const auto& [contents, expected] : cases) {
        const TempFile file("attn_bad_tsv", contents);
        const std::string message = read_error(file.path);
        CAPTURE(message);
        CHECK(message.rfind(file.path.string() + expected, 0) == 0);   // starts with "path:LINE: ..."
        CHECK(message.find('\n') == std::string::npos);
    }
}

TEST_CASE("data: Unix, Windows and classic Mac line ends all separate pairs" * doctest::test_suite("common")) {
    for (const std::string& end : {std::string("\n"), std::string("\r\n"), std::string("\r")}) {
        CAPTURE(end.size());
        const TempFile file("attn_line_ends", "le chat\tthe cat" + end + "un chien\ta dog" + end + "\tbad" + end);
        CHECK(read_error(file.path).rfind(file.path.string() + ":3: empty source sentence", 0) == 0);   // line 3: counted right
        const TempFile good("attn_line_ends_ok", "le chat\tthe cat" + end + "un chien\ta dog" + end);
        const std::vector<Pair> pairs = read_tsv_pairs(good.path, all_in_file_order(TokenLevel::word));
        REQUIRE(pairs.size() == 2);
        CHECK(pairs[1].source == Tokens{"un", "chien"});
        CHECK(pairs[1].target == Tokens{"a", "dog"});
    }
}

TEST_CASE("data: an empty, missing or unreadable TSV file is an error naming it" * doctest::test_suite("common")) {
    SUBCASE("an empty file, or one of blank lines, has no sentence pairs") {
        for (const std::string& contents : {std::string(), std::string("\n  \n\r\n")}) {
            const TempFile file("attn_empty_tsv", contents);
            CHECK(read_error(file.path) == file.path.string() + ": the file has no sentence pairs");
        }
    }
    SUBCASE("a missing file or a folder cannot be opened") {
        const std::filesystem::path missing = std::filesystem::temp_directory_path() / "attn_no_such_file.tsv";
        CHECK(read_error(missing) == missing.string() + ": cannot open the file: it does not exist");
        const std::filesystem::path folder = std::filesystem::temp_directory_path();
        CHECK(read_error(folder).find(folder.string() + ": cannot open the file") == 0);
    }
    SUBCASE("a FIFO or a device is refused at once instead of hanging") {
        const std::filesystem::path fifo = std::filesystem::temp_directory_path() / ("attn_fifo." + std::to_string(::getpid()));
        REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
        CHECK(read_error(fifo) == fifo.string() + ": cannot open the file: it is not a regular file (a FIFO, socket or device); give a file");
        std::filesystem::remove(fifo);
        CHECK(read_error("/dev/zero").find("/dev/zero: cannot open the file: it is not a regular file") == 0);
    }
    SUBCASE("a file whose pairs are all too long says so") {
        const TempFile file("attn_long_tsv", "one two three\tun deux trois\n");
        TsvOptions options;
        options.max_len = 2;
        CHECK_THROWS_WITH_AS(read_tsv_pairs(file.path, options), doctest::Contains(": no sentence pair has at most 2"),
                             std::runtime_error);
    }
    SUBCASE("the pairs left out for their length are counted, and the corpus says how many") {
        std::string text;
        for (int i = 0; i < 5; ++i) text += "a" + std::to_string(i) + " b\tc d\n";
        text += "one two three\tun deux trois\none two\tun deux trois\n";
        const TempFile file("attn_counted_tsv", text);
        TsvOptions options;
        options.max_len = 2;
        std::size_t left_out = 99;
        CHECK(read_tsv_pairs(file.path, options, &left_out).size() == 5);
        CHECK(left_out == 2);
        CHECK(read_tsv_corpus(file.path, options).description.find("5 pairs (2 longer pairs left out)") != std::string::npos);
    }
    SUBCASE("a byte-order mark and Windows line ends are accepted") {
        const TempFile file("attn_bom_tsv", "\xEF\xBB\xBFHi.\tSalut.\r\nBye.\tAu revoir.\r\n");
        const std::vector<Pair> pairs = read_tsv_pairs(file.path);
        REQUIRE(pairs.size() == 2);
        CHECK(pairs[0].source == Tokens{"hi", "."});
        CHECK(pairs[1].target == Tokens{"au", "revoir", "."});
    }
}
