// Tokenizers: text to tokens at the character level (Unicode code points, see docs/design.md)
// or the word level, plus the light normalisation applied to read text. Used by every data
// set in common/data; introduced in chapter 01 (the encoder-decoder reads tokens).
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace attn::data {

// Character level: one token per Unicode code point, each a UTF-8 string.
// "2026年11月25日" -> {"2","0","2","6","年","1","1","月","2","5","日"}; "é" is one token.
// Throws std::invalid_argument "invalid UTF-8 at byte N: <why>" on malformed input.
std::vector<std::string> split_code_points(const std::string& utf8);

// nullopt when `text` is valid UTF-8, otherwise "invalid UTF-8 at byte N: <why>"
// (N counts from 0), so callers can put the problem in their own message.
std::optional<std::string> utf8_problem(const std::string& text);

// Word level: lower-cases (ASCII and Latin-1 letters, so "État" -> "état"), splits on
// spaces, and makes each punctuation mark its own token: "Hello, world!" -> {"hello", ",",
// "world", "!"}. Apostrophes and hyphens between two letters stay inside the word
// ("don't", "aujourd'hui", "peut-être"), except after a French elided word (l d j m n s t c
// qu jusqu lorsqu puisqu quoiqu presqu), which becomes a token of its own with its
// apostrophe: "C'est l'été" -> {"c'", "est", "l'", "été"}, as in the toy corpus. Other
// non-ASCII code points count as letters.
std::vector<std::string> split_words(const std::string& text);

// Light normalisation of read text: Unicode spaces (no-break, thin) become " ", curly
// apostrophes become "'", runs of white space collapse to one " ", and both ends are
// trimmed. No Unicode composition (NFC) is done: that needs a library the course avoids.
// split_words, normalize_text and to_lower throw like split_code_points on invalid UTF-8.
std::string normalize_text(const std::string& text);

// Lower-cases ASCII letters, the Latin-1 capitals À..Þ ("É" -> "é") and Œ; other code points stay.
std::string to_lower(const std::string& text);

// A printable form of a token for plot tick labels: " " -> "␣", "\t" -> "⇥",
// "" -> "∅"; every other token is returned unchanged.
std::string display_token(const std::string& token);

// Joins tokens with `separator` ("" rebuilds character-level text, " " word-level text).
std::string join_tokens(const std::vector<std::string>& tokens, const std::string& separator);

}  // namespace attn::data
