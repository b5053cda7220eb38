// How good are the translations: token accuracy, exact match, corpus BLEU (Papineni et al.
// 2002) and a smoothed sentence BLEU for showing single translations.
// Introduced in chapter 01 (accuracy and BLEU by source length); used by every chapter that translates.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace attn::metrics {

// A sentence is its tokens, without <bos>, <eos> or padding. Every function takes one
// reference per hypothesis, in the same order, and throws std::invalid_argument when the
// two lists have different sizes or are empty.
using Sentence = std::vector<std::string>;

// correct / reference tokens, where position t of sentence i is correct when
// predicted[i][t] == reference[i][t], summed over the whole set.
// A prediction shorter than its reference gets the missing positions wrong; extra predicted
// tokens are not counted at all (use exact_match to see them). Throws if the references
// hold no tokens.
double token_accuracy(const std::vector<Sentence>& predicted, const std::vector<Sentence>& reference);

// (sentences whose prediction equals the reference in full) / sentences.
// The callers pass sentences without <eos>, so a prediction that stops early or runs on is
// a length mismatch, and a length mismatch is never an exact match.
double exact_match(const std::vector<Sentence>& predicted, const std::vector<Sentence>& reference);

// The n-gram counts behind one BLEU precision p_n = matched / total.
struct NgramMatches {
    std::int64_t matched;  // sum over n-grams g of min(count_hyp(g), count_ref(g)): "clipped"
    std::int64_t total;    // n-grams in the hypothesis: max(0, len - n + 1)
};

// Clipped n-gram matches of one hypothesis against its reference. Clipping stops
// "the the the the" from earning 4 matches against "the cat": each reference n-gram can be
// matched as often as it occurs there, so that gives {1, 4}. Throws unless n >= 1.
NgramMatches count_ngram_matches(const Sentence& hypothesis, const Sentence& reference, int n);

// BP = 1 if c > r, exp(1 - r / c) if 0 < c <= r, 0 if c == 0
// (c = hypothesis length, r = reference length; for a corpus, the totals).
double brevity_penalty(std::int64_t hypothesis_length, std::int64_t reference_length);

// BLEU = BP * exp(sum_{n=1..N} (1/N) log p_n),   N = max_n,
// p_n = (sum over sentences of clipped matches) / (sum over sentences of hypothesis n-grams),
// BP from the total lengths. No smoothing: if any p_n is 0 (or has no n-grams to count),
// BLEU is 0. In [0, 1]. Matches NLTK's corpus_bleu wherever every hypothesis has at least
// max_n tokens; NLTK counts at least one n-gram per hypothesis, so it scores corpora with
// shorter sentences lower (tests/data/common/make_bleu_cases.py explains).
double corpus_bleu(const std::vector<Sentence>& hypotheses, const std::vector<Sentence>& references,
                   int max_n = 4);

// BLEU of one sentence with NLTK's SmoothingFunction().method1: a p_n with 0 matches
// becomes 0.1 / total, and total is at least 1 (as NLTK counts it), so one missing 4-gram
// does not zero the score. Still 0 when no unigram matches. For display, not for comparing
// systems (use corpus_bleu): a perfect one-word sentence scores 0.1^(3/4) = 0.178.
double sentence_bleu(const Sentence& hypothesis, const Sentence& reference, int max_n = 4);

// The three numbers a chapter reports for a test set.
struct Scores {
    double bleu;            // corpus_bleu, max_n = 4
    double token_accuracy;
    double exact_match;
};
Scores score_all(const std::vector<Sentence>& predicted, const std::vector<Sentence>& reference);

}  // namespace attn::metrics
