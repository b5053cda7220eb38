// Vocabularies: special tokens, minimum frequency, encode/decode, and the file format.
#include "common/data/vocab.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

using attn::data::Vocab;
using Tokens = std::vector<std::string>;

namespace {

// A file in the temp folder that is deleted when the test ends.
struct TempFile {
    std::filesystem::path path;
    TempFile(const std::string& name, const std::string& contents)
        : path(std::filesystem::temp_directory_path() / (name + "." + std::to_string(::getpid()))) {
        std::ofstream(path, std::ios::binary) << contents;
    }
    ~TempFile() { std::filesystem::remove(path); }
};

// The message of the std::runtime_error that load() throws, or "" if it does not throw.
std::string load_error(const std::filesystem::path& path) {
    try {
        Vocab::load(path);
    } catch (const std::runtime_error& error) {
        return error.what();
    }
    return "";
}

}  // namespace

TEST_CASE("data: every vocabulary starts with the four special tokens" * doctest::test_suite("common")) {
    const Vocab vocab;
    CHECK(vocab.size() == 4);
    CHECK(vocab.tokens() == Tokens{"<pad>", "<bos>", "<eos>", "<unk>"});
    CHECK(vocab.id("<pad>") == attn::data::pad_id);
    CHECK(vocab.id("<bos>") == attn::data::bos_id);
    CHECK(vocab.id("<eos>") == attn::data::eos_id);
    CHECK(vocab.id("never seen") == attn::data::unk_id);
    CHECK_THROWS_AS(vocab.token(4), std::out_of_range);
    CHECK_THROWS_AS(vocab.token(-1), std::out_of_range);
}

TEST_CASE("data: Vocab::build orders by frequency and applies min_freq" * doctest::test_suite("common")) {
    // counts: a 3, b 2, c 1, z 1, y 1
    const std::vector<Tokens> sentences = {{"a", "b", "a", "z"}, {"a", "c", "b", "y"}};
    SUBCASE("most frequent first, ties in byte order, after the specials") {
        const Vocab vocab = Vocab::build(sentences, 1);
        CHECK(vocab.tokens() == Tokens{"<pad>", "<bos>", "<eos>", "<unk>", "a", "b", "c", "y", "z"});
    }
    SUBCASE("tokens seen fewer than min_freq times become <unk>") {
        const Vocab vocab = Vocab::build(sentences, 2);
        CHECK(vocab.size() == 6);
        CHECK(vocab.id("a") == 4);
        CHECK(vocab.id("b") == 5);
        CHECK(vocab.id("c") == attn::data::unk_id);
        CHECK(Vocab::build(sentences, 4).size() == 4);   // nothing is that frequent
    }
    SUBCASE("a special token in the data keeps its special id") {
        const Vocab vocab = Vocab::build({{"<eos>", "<eos>", "x"}}, 1);
        CHECK(vocab.size() == 5);
        CHECK(vocab.id("<eos>") == attn::data::eos_id);
    }
}

TEST_CASE("data: encode and decode" * doctest::test_suite("common")) {
    const Vocab vocab = Vocab::build({{"le", "chat", "dort", "le"}}, 1);   // le 4, chat 5, dort 6
    CHECK(vocab.encode({"le", "chien", "dort"}) == std::vector<std::int64_t>{4, attn::data::unk_id, 6});
    SUBCASE("decode stops at <eos>, skips <pad> and <bos>, and keeps <unk>") {
        const std::vector<std::int64_t> ids = {attn::data::bos_id, 4, attn::data::pad_id, 3, 5, attn::data::eos_id, 6};
        CHECK(vocab.decode(ids) == Tokens{"le", "<unk>", "chat"});
    }
    SUBCASE("decode(encode(tokens)) gives known tokens back") {
        CHECK(vocab.decode(vocab.encode({"chat", "le", "dort"})) == Tokens{"chat", "le", "dort"});
    }
}

TEST_CASE("data: a vocabulary saved and loaded is the same" * doctest::test_suite("common")) {
    const Vocab vocab = Vocab::build({{"2", "0", " ", "年", "é", "\t"}}, 1);
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("attn_vocab_roundtrip." + std::to_string(::getpid()));
    vocab.save(path);
    const Vocab loaded = Vocab::load(path);
    std::filesystem::remove(path);
    CHECK(loaded.tokens() == vocab.tokens());
    CHECK(loaded.id(" ") == vocab.id(" "));
    CHECK(vocab.text() == "<pad>\n<bos>\n<eos>\n<unk>\n\t\n \n0\n2\né\n年\n");   // what save() writes: ties in byte order
    CHECK_THROWS_AS(Vocab::build({{"two\nlines"}}, 1).text(), std::invalid_argument);
    CHECK_THROWS_AS(Vocab::build({{"two\nlines"}}, 1).save(path), std::invalid_argument);
    CHECK_FALSE(std::filesystem::exists(path));
}

TEST_CASE("data: Vocab::load names the file and line of a problem" * doctest::test_suite("common")) {
    const std::string specials = "<pad>\n<bos>\n<eos>\n<unk>\n";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {specials + "x\ny\nx\n", ":7: duplicate token (first on line 5)"},
        {"<pad>\n<eos>\n<bos>\n<unk>\n", ":2: expected the special token <bos>"},
        {specials + "x\n\ny\n", ":6: empty token"},
        {specials + "ok\nbad\xFF\n", ":6: invalid UTF-8 at byte 3"},
    };
    for (const auto& [contents, expected] : cases) {
        const TempFile file("attn_vocab_bad", contents);
        const std::string message = load_error(file.path);
        CAPTURE(message);
        CHECK(message.rfind(file.path.string() + expected, 0) == 0);   // starts with "path:LINE: ..."
        CHECK(message.find('\n') == std::string::npos);
    }
    SUBCASE("an empty or missing file is an error naming it") {
        const TempFile empty("attn_vocab_empty", "");
        CHECK(load_error(empty.path) == empty.path.string() + ": the vocabulary file is empty");
        const std::filesystem::path missing = std::filesystem::temp_directory_path() / "attn_no_such_vocab.txt";
        CHECK(load_error(missing).find(missing.string() + ": cannot open") == 0);
        const TempFile short_file("attn_vocab_short", "<pad>\n<bos>\n");
        CHECK(load_error(short_file.path).find("ends before the four special tokens") != std::string::npos);
    }
    SUBCASE("Windows line ends are accepted") {
        const TempFile crlf("attn_vocab_crlf", "<pad>\r\n<bos>\r\n<eos>\r\n<unk>\r\nx\r\n");
        CHECK(Vocab::load(crlf.path).id("x") == 4);
    }
}
