// Tokenizers: code points (docs/design.md, "Text is Unicode code points"), words, UTF-8 validation and normalisation.
#include "common/data/tokenize.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

using attn::data::split_code_points;
using attn::data::split_words;
using Tokens = std::vector<std::string>;

TEST_CASE("data: split_code_points gives one token per Unicode code point" * doctest::test_suite("common")) {
    SUBCASE("a CJK date is 11 tokens, each character whole") {
        const Tokens tokens = split_code_points("2026年11月25日");
        CHECK(tokens == Tokens{"2", "0", "2", "6", "年", "1", "1", "月", "2", "5", "日"});
    }
    SUBCASE("é is one token; a combining accent is a code point of its own (no NFC)") {
        CHECK(split_code_points("\xC3\xA9") == Tokens{"é"});             // U+00E9
        CHECK(split_code_points("e\xCC\x81").size() == 2);              // e + U+0301
        CHECK(split_code_points("\xF0\x9F\x98\x80!").size() == 2);       // a 4-byte emoji, then "!"
    }
    SUBCASE("joining the tokens gives the text back") {
        const std::string text = "Joyeux anniversaire, Émilie ! 私は緑茶が好きです。";
        CHECK(attn::data::join_tokens(split_code_points(text), "") == text);
    }
    SUBCASE("the empty string has no tokens") { CHECK(split_code_points("").empty()); }
}

TEST_CASE("data: invalid UTF-8 is an error that names the byte" * doctest::test_suite("common")) {
    // Each case: the bytes, and the offset of the first bad byte.
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"ab\xFF", "byte 2"},           // never appears in UTF-8
        {"\x80x", "byte 0"},            // continuation without a lead
        {"x\xE5\xB9", "byte 1"},        // truncated 3-byte sequence
        {"\xC0\xAF", "byte 0"},         // overlong "/"
        {"ok\xED\xA0\x80", "byte 2"},   // UTF-16 surrogate U+D800
        {"\xF4\x90\x80\x80", "byte 0"}, // above U+10FFFF
    };
    for (const auto& [bytes, where] : cases) {
        CAPTURE(where);
        CHECK_THROWS_WITH_AS(split_code_points(bytes), doctest::Contains(where.c_str()), std::invalid_argument);
        CHECK_THROWS_AS(split_words(bytes), std::invalid_argument);
        REQUIRE(attn::data::utf8_problem(bytes).has_value());
        CHECK(attn::data::utf8_problem(bytes)->find("invalid UTF-8 at " + where) == 0);
    }
    CHECK_FALSE(attn::data::utf8_problem("plain, é, 年, \xF0\x9F\x98\x80").has_value());
}

TEST_CASE("data: split_words lower-cases and splits punctuation off" * doctest::test_suite("common")) {
    SUBCASE("punctuation marks become tokens") {
        CHECK(split_words("Hello, World!") == Tokens{"hello", ",", "world", "!"});
        CHECK(split_words("« Oui », dit-il...") == Tokens{"«", "oui", "»", ",", "dit-il", ".", ".", "."});
    }
    SUBCASE("apostrophes and hyphens inside a word stay; curly apostrophes become straight") {
        CHECK(split_words("Don\xE2\x80\x99t stop") == Tokens{"don't", "stop"});
        CHECK(split_words("aujourd'hui, peut-être") == Tokens{"aujourd'hui", ",", "peut-être"});
        CHECK(split_words("'quoted' - yes") == Tokens{"'", "quoted", "'", "-", "yes"});
    }
    SUBCASE("French elisions are split after the apostrophe, as the toy corpus writes them") {
        CHECK(split_words("C'est l'oiseau qu'est-ce j'ai vu.") ==
              Tokens{"c'", "est", "l'", "oiseau", "qu'", "est-ce", "j'", "ai", "vu", "."});
        CHECK(split_words("Jusqu\xE2\x80\x99à lorsqu'il n'a d'eau") ==
              Tokens{"jusqu'", "à", "lorsqu'", "il", "n'", "a", "d'", "eau"});
        CHECK(split_words("It's Rock'n'roll o'clock, aujourd'hui") ==
              Tokens{"it's", "rock'n'roll", "o'clock", ",", "aujourd'hui"});   // not elisions: whole words
        CHECK(split_words("l' oiseau") == split_words("l'oiseau"));
    }
    SUBCASE("accented capitals are lower-cased and letters stay whole") {
        CHECK(split_words("L'ÉTÉ À Paris.") == Tokens{"l'", "été", "à", "paris", "."});
    }
    SUBCASE("no-break spaces separate words, as French typography uses them") {
        CHECK(split_words("Va\xC2\xA0!") == Tokens{"va", "!"});
        CHECK(split_words("Salut\xE2\x80\xAF!") == Tokens{"salut", "!"});
    }
    SUBCASE("CJK text without spaces is one word, its full stop a token") {
        CHECK(split_words("私は緑茶が好きです。") == Tokens{"私は緑茶が好きです", "。"});
    }
}

TEST_CASE("data: normalisation, lower-casing and display forms" * doctest::test_suite("common")) {
    SUBCASE("spaces collapse and both ends are trimmed") {
        CHECK(attn::data::normalize_text("  a \t b\xC2\xA0\xC2\xA0 c \r\n") == "a b c");
        CHECK(attn::data::normalize_text("Don\xE2\x80\x99t") == "Don't");
        CHECK(attn::data::normalize_text(" \t ").empty());
    }
    SUBCASE("to_lower handles ASCII, Latin-1 and Œ, and leaves the rest") {
        CHECK(attn::data::to_lower("ÉCOLE Œuvre ÀÞ × 年") == "école œuvre àþ × 年");
    }
    SUBCASE("a space gets a visible form for tick labels; other tokens do not change") {
        CHECK(attn::data::display_token(" ") == "\xE2\x90\xA3");   // ␣ U+2423
        CHECK(attn::data::display_token("年") == "年");
        CHECK(attn::data::display_token("<eos>") == "<eos>");
    }
}
