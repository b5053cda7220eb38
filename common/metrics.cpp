// Token accuracy, exact match, corpus BLEU and smoothed sentence BLEU (see metrics.hpp).
// Introduced in chapter 01; the reference values come from NLTK (tests/data/common/).
#include "common/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <sstream>
#include <stdexcept>

namespace attn::metrics {
namespace {

// NLTK's SmoothingFunction().method1: the count given to a precision with no matches.
constexpr double smoothing_epsilon = 0.1;

// Throws unless there is one reference per hypothesis and at least one of each.
void check_pairs(const char* function, const std::vector<Sentence>& hypotheses,
                 const std::vector<Sentence>& references) {
    if (hypotheses.size() != references.size()) {
        std::ostringstream message;
        message << function << ": " << hypotheses.size() << " hypotheses but "
                << references.size() << " references (one reference per hypothesis)";
        throw std::invalid_argument(message.str());
    }
    if (hypotheses.empty())
        throw std::invalid_argument(std::string(function) + ": the set of sentences is empty");
}

void check_max_n(const char* function, int max_n) {
    if (max_n < 1)
        throw std::invalid_argument(std::string(function) + ": max_n must be at least 1, got " +
                                    std::to_string(max_n));
}

// How often each n-gram occurs in the sentence. A map keyed by the tokens themselves, so
// no separator character can make two different n-grams collide.
std::map<Sentence, std::int64_t> count_ngrams(const Sentence& sentence, std::size_t n) {
    std::map<Sentence, std::int64_t> counts;
    for (std::size_t start = 0; start + n <= sentence.size(); ++start)
        ++counts[Sentence(sentence.begin() + start, sentence.begin() + start + n)];
    return counts;
}

// BP * exp(sum_n (1/N) log p_n), the geometric mean of the precisions with uniform weights.
double weighted_geometric_mean(const std::vector<double>& precisions, double bp) {
    const double weight = 1.0 / static_cast<double>(precisions.size());
    double log_mean = 0.0;
    for (const double p : precisions) log_mean += weight * std::log(p);
    return bp * std::exp(log_mean);
}

std::int64_t total_length(const std::vector<Sentence>& sentences) {
    std::int64_t length = 0;
    for (const Sentence& sentence : sentences) length += static_cast<std::int64_t>(sentence.size());
    return length;
}

}  // namespace

double token_accuracy(const std::vector<Sentence>& predicted, const std::vector<Sentence>& reference) {
    check_pairs("token_accuracy", predicted, reference);
    std::int64_t correct = 0;
    std::int64_t positions = 0;
    for (std::size_t i = 0; i < reference.size(); ++i) {
        // Positions past the end of the prediction stay wrong; extra predictions are ignored.
        const std::size_t overlap = std::min(predicted[i].size(), reference[i].size());
        for (std::size_t t = 0; t < overlap; ++t)
            if (predicted[i][t] == reference[i][t]) ++correct;
        positions += static_cast<std::int64_t>(reference[i].size());
    }
    if (positions == 0)
        throw std::invalid_argument("token_accuracy: the references hold no tokens");
    return static_cast<double>(correct) / static_cast<double>(positions);
}

double exact_match(const std::vector<Sentence>& predicted, const std::vector<Sentence>& reference) {
    check_pairs("exact_match", predicted, reference);
    std::size_t matches = 0;
    for (std::size_t i = 0; i < reference.size(); ++i)
        if (predicted[i] == reference[i]) ++matches;  // same length and same tokens
    return static_cast<double>(matches) / static_cast<double>(reference.size());
}

NgramMatches count_ngram_matches(const Sentence& hypothesis, const Sentence& reference, int n) {
    check_max_n("count_ngram_matches", n);
    const std::size_t order = static_cast<std::size_t>(n);
    const std::map<Sentence, std::int64_t> hypothesis_counts = count_ngrams(hypothesis, order);
    const std::map<Sentence, std::int64_t> reference_counts = count_ngrams(reference, order);
    NgramMatches result{0, 0};
    for (const auto& [ngram, count] : hypothesis_counts) {
        const auto found = reference_counts.find(ngram);
        if (found != reference_counts.end()) result.matched += std::min(count, found->second);
        result.total += count;
    }
    return result;
}

double brevity_penalty(std::int64_t hypothesis_length, std::int64_t reference_length) {
    if (hypothesis_length > reference_length) return 1.0;
    if (hypothesis_length == 0) return 0.0;  // nothing translated scores nothing
    const double r_over_c = static_cast<double>(reference_length) / static_cast<double>(hypothesis_length);
    return std::exp(1.0 - r_over_c);
}

double corpus_bleu(const std::vector<Sentence>& hypotheses, const std::vector<Sentence>& references,
                   int max_n) {
    check_pairs("corpus_bleu", hypotheses, references);
    check_max_n("corpus_bleu", max_n);
    // Counts are summed over the corpus before dividing (a micro-average), as in the paper.
    std::vector<NgramMatches> sums(static_cast<std::size_t>(max_n), NgramMatches{0, 0});
    for (std::size_t i = 0; i < hypotheses.size(); ++i) {
        for (int n = 1; n <= max_n; ++n) {
            const NgramMatches counts = count_ngram_matches(hypotheses[i], references[i], n);
            sums[n - 1].matched += counts.matched;
            sums[n - 1].total += counts.total;
        }
    }
    std::vector<double> precisions;
    for (const NgramMatches& sum : sums) {
        if (sum.matched == 0) return 0.0;  // no smoothing: one zero p_n makes the mean 0
        precisions.push_back(static_cast<double>(sum.matched) / static_cast<double>(sum.total));
    }
    const double bp = brevity_penalty(total_length(hypotheses), total_length(references));
    return weighted_geometric_mean(precisions, bp);
}

double sentence_bleu(const Sentence& hypothesis, const Sentence& reference, int max_n) {
    check_max_n("sentence_bleu", max_n);
    std::vector<double> precisions;
    for (int n = 1; n <= max_n; ++n) {
        const NgramMatches counts = count_ngram_matches(hypothesis, reference, n);
        // NLTK counts at least one n-gram, so a hypothesis shorter than n gets 0.1 / 1.
        const double total = static_cast<double>(std::max<std::int64_t>(counts.total, 1));
        if (counts.matched == 0 && n == 1) return 0.0;  // NLTK does not smooth away "no word right"
        const double matched = counts.matched == 0 ? smoothing_epsilon
                                                   : static_cast<double>(counts.matched);
        precisions.push_back(matched / total);
    }
    const double bp = brevity_penalty(static_cast<std::int64_t>(hypothesis.size()),
                                      static_cast<std::int64_t>(reference.size()));
    return weighted_geometric_mean(precisions, bp);
}

Scores score_all(const std::vector<Sentence>& predicted, const std::vector<Sentence>& reference) {
    return {corpus_bleu(predicted, reference), token_accuracy(predicted, reference),
            exact_match(predicted, reference)};
}

}  // namespace attn::metrics
