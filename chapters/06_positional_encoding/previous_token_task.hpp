// The order task of chapter 06: every position answers with the token just before it.
// A sequence of letters such as "c a b b e" is tagged "^ c a b b" ("^": nothing before
// position 0). The answer lies at a fixed distance, one step to the left, so a model must
// know where each token stands: from the tokens alone, the letter before "b" could be any
// letter of the sequence. Sequences in a batch have different lengths; the shorter ones are
// padded at the end, and the padding is masked out of attention and out of the loss.
#pragma once
#include "chapters/03_queries_keys_values/attention.hpp"
#include "common/random.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace attn::ch06 {

struct PreviousTokenTask {
    std::size_t letters = 16;            // tokens 0 .. letters - 1, printed as "a", "b", ...
    std::size_t shortest = 1, longest = 30;   // training lengths, drawn uniformly
    // Classes: one per letter, and `nothing` for position 0.
    std::size_t classes() const { return letters + 1; }
    std::int64_t nothing() const { return static_cast<std::int64_t>(letters); }
};

// A padded batch, all (batch, n) with n the longest sequence in it.
struct TokenBatch {
    xt::xarray<std::int64_t> tokens;     // padding: 0 (masked anyway)
    xt::xarray<std::int64_t> targets;    // the token before each position; padding: ignored_target
    ch03::Mask padding;                  // true at padding: blocked as a key
    std::vector<std::size_t> lengths;
};
inline constexpr std::int64_t ignored_target = -100;   // cross_entropy's ignore_index

// Fresh random sequences, lengths drawn uniformly from [shortest, longest].
TokenBatch make_token_batch(const PreviousTokenTask& task, std::size_t batch, std::size_t shortest, std::size_t longest,
                            Rng& rng);
// The targets and padding of given sequences (each a list of tokens < task.letters);
// throws std::invalid_argument for an empty batch, an empty sequence or a token out of range.
TokenBatch label_token_batch(const PreviousTokenTask& task, const std::vector<std::vector<std::int64_t>>& sequences);

// "a", "b", ... for tokens, "^" for the class `nothing`.
std::string token_name(const PreviousTokenTask& task, std::int64_t token);

}  // namespace attn::ch06
