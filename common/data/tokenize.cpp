// Character and word tokenizers, UTF-8 validation and normalisation (see tokenize.hpp).
// Introduced in chapter 01.
#include "common/data/tokenize.hpp"

#include <stdexcept>

namespace attn::data {
namespace {

// One decoded code point: its value and its length in bytes, or the reason it is invalid.
struct CodePoint {
    char32_t value = 0;
    std::size_t length = 0;
    const char* problem = nullptr;
};

bool is_continuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

// Decodes the code point that starts at byte `at` (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF).
CodePoint decode_at(const std::string& text, std::size_t at) {
    const unsigned char lead = static_cast<unsigned char>(text[at]);
    if (lead < 0x80) return {lead, 1, nullptr};
    if (is_continuation(lead)) return {0, 0, "a continuation byte without a lead byte"};
    if (lead < 0xC2) return {0, 0, "an overlong encoding"};
    if (lead > 0xF4) return {0, 0, "a byte that never appears in UTF-8"};
    const std::size_t length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    char32_t value = lead & (0x7F >> length);
    for (std::size_t k = 1; k < length; ++k) {
        if (at + k >= text.size() || !is_continuation(static_cast<unsigned char>(text[at + k])))
            return {0, 0, "a truncated multi-byte sequence"};
        value = (value << 6) | (static_cast<unsigned char>(text[at + k]) & 0x3F);
    }
    if ((length == 3 && value < 0x800) || (length == 4 && value < 0x10000))
        return {0, 0, "an overlong encoding"};
    if (value >= 0xD800 && value <= 0xDFFF) return {0, 0, "a UTF-16 surrogate"};
    if (value > 0x10FFFF) return {0, 0, "a code point above U+10FFFF"};
    return {value, length, nullptr};
}

bool is_space(char32_t c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == 0xA0 ||
           (c >= 0x2000 && c <= 0x200B) || c == 0x202F || c == 0x205F || c == 0x3000;
}

bool is_apostrophe(char32_t c) { return c == '\'' || c == 0x2019 || c == 0x2018; }

// Punctuation that becomes a token of its own: ASCII marks and the common typographic ones
// (« » ¿ ¡ … – — “ ” „ and the CJK comma and full stops).
bool is_punctuation(char32_t c) {
    if (c < 0x80) return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') ||
                         (c >= '{' && c <= '~');
    for (char32_t mark : {0xAB, 0xBB, 0xBF, 0xA1, 0x2026, 0x2013, 0x2014, 0x201C, 0x201D, 0x201E,
                          0x2018, 0x2019, 0x3001, 0x3002, 0xFF0C, 0xFF01, 0xFF1F, 0xFF1A, 0xFF1B})
        if (c == mark) return true;
    return false;
}

bool is_word_char(char32_t c) { return !is_space(c) && !is_punctuation(c); }

// French words that elide their vowel before another word: "c'est" is "c'" + "est", as the
// toy corpus writes "l' oiseau". "aujourd'hui" and English "don't" are not among them.
bool is_elided_word(const std::string& word) {
    for (const char* elided : {"l", "d", "j", "m", "n", "s", "t", "c", "qu", "jusqu", "lorsqu", "puisqu", "quoiqu", "presqu"})
        if (word == elided) return true;
    return false;
}

// Every code point of `text` (throws std::invalid_argument on invalid UTF-8).
std::vector<char32_t> decode_all(const std::string& text) {
    std::vector<char32_t> values;
    for (std::size_t at = 0; at < text.size();) {
        const CodePoint point = decode_at(text, at);
        if (point.problem != nullptr)
            throw std::invalid_argument("invalid UTF-8 at byte " + std::to_string(at) + ": " + point.problem);
        values.push_back(point.value);
        at += point.length;
    }
    return values;
}

std::string encode(char32_t c) {
    std::string out;
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
    return out;
}

char32_t lower(char32_t c) {
    if (c >= 'A' && c <= 'Z') return c + 32;
    if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 32;   // À..Þ, except the sign ×
    if (c == 0x152) return 0x153;                              // Œ -> œ (French "Œuvre")
    return c;
}

}  // namespace

std::optional<std::string> utf8_problem(const std::string& text) {
    for (std::size_t at = 0; at < text.size();) {
        const CodePoint point = decode_at(text, at);
        if (point.problem != nullptr) return "invalid UTF-8 at byte " + std::to_string(at) + ": " + point.problem;
        at += point.length;
    }
    return std::nullopt;
}

std::vector<std::string> split_code_points(const std::string& utf8) {
    std::vector<std::string> tokens;
    for (char32_t c : decode_all(utf8)) tokens.push_back(encode(c));
    return tokens;
}

std::vector<std::string> split_words(const std::string& text) {
    const std::vector<char32_t> points = decode_all(text);
    std::vector<std::string> tokens;
    std::string word;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const char32_t c = points[i];
        const bool inside_word = !word.empty() && i + 1 < points.size() && is_word_char(points[i + 1]);
        if (is_apostrophe(c) && is_elided_word(word)) {
            tokens.push_back(word + "'");   // "qu'est-ce" -> "qu'", "est-ce"; "l' oiseau" -> "l'", "oiseau"
            word.clear();
        } else if (inside_word && (is_apostrophe(c) || c == '-')) {
            word += is_apostrophe(c) ? '\'' : '-';   // "don’t" and "don't" are the same word
        } else if (is_word_char(c)) {
            word += encode(lower(c));
        } else {
            if (!word.empty()) tokens.push_back(word);
            word.clear();
            if (is_punctuation(c)) tokens.push_back(encode(c));
        }
    }
    if (!word.empty()) tokens.push_back(word);
    return tokens;
}

std::string normalize_text(const std::string& text) {
    std::string out;
    bool pending_space = false;
    for (char32_t c : decode_all(text)) {
        if (is_space(c)) {
            pending_space = !out.empty();   // leading spaces are dropped, runs become one
            continue;
        }
        if (pending_space) out += ' ';
        pending_space = false;
        out += encode(c == 0x2019 || c == 0x2018 ? U'\'' : c);
    }
    return out;
}

std::string to_lower(const std::string& text) {
    std::string out;
    for (char32_t c : decode_all(text)) out += encode(lower(c));
    return out;
}

std::string display_token(const std::string& token) {
    if (token == " ") return "\u2423";    // ␣ open box
    if (token == "\t") return "\u21E5";   // ⇥
    if (token.empty()) return "\u2205";   // ∅
    return token;
}

std::string join_tokens(const std::vector<std::string>& tokens, const std::string& separator) {
    std::string text;
    for (std::size_t i = 0; i < tokens.size(); ++i) text += (i > 0 ? separator : "") + tokens[i];
    return text;
}

}  // namespace attn::data
