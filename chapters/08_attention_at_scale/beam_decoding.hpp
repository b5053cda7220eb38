// Part 7 of chapter 08: greedy decoding against beam search (8.16) on the same test sentences
// under chapter 07's translation model. Quality (BLEU, exact match, by source length), the
// model's own log-probability of each output, the outputs' lengths, and the time each takes.
#pragma once
#include "chapters/01_encoder_decoder/evaluation.hpp"
#include "chapters/08_attention_at_scale/beam_search.hpp"
#include "chapters/08_attention_at_scale/cached_translation.hpp"
#include "common/summary.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace attn::ch08 {

// Beam search of every pair's source, one sentence at a time (beam_search works on one),
// without a tape, hypotheses compared by (8.17) with this length_penalty. Each hypothesis ends
// with <eos> if it finished.
std::vector<Hypothesis> beam_translate(CachedTranslationModel<float>& model, const ch01::Task& task,
                                       const std::vector<data::Pair>& pairs, std::size_t beam_size,
                                       double length_penalty = 0);

// Where beam search lands against greedy on the model's own log-probability, sentence by
// sentence: the same tokens count as equal, otherwise the higher total wins.
struct LogProbabilityCounts {
    std::size_t below = 0, equal = 0, above = 0;   // beam's total against greedy's
    std::ptrdiff_t largest_fall = -1;              // the sentence beam scored furthest below greedy, or -1
};
LogProbabilityCounts compare_log_probabilities(const std::vector<Hypothesis>& greedy, const std::vector<Hypothesis>& beam);

// How long greedy's path survived in the beam of one sentence: beam search run again with
// a step that watches its rows. greedy_steps == steps: greedy's prefix was among the rows
// at every step, and the search stopped before it could finish (a finished hypothesis
// scored at least as high as the prefix, or max_len was reached); otherwise the beam dropped
// it after step greedy_steps.
struct BeamTrace {
    std::size_t steps = 0;          // decoder steps the search took
    std::size_t greedy_steps = 0;   // the last step at which a row held greedy's prefix
};
BeamTrace trace_greedy_path(CachedTranslationModel<float>& model, const ch01::Task& task, const data::Pair& pair,
                            const std::vector<std::int64_t>& greedy_tokens, std::size_t beam_size,
                            double length_penalty = 0);

struct BeamComparison {
    std::size_t beam_size = 0;
    double length_penalty = 0;                    // (8.17): 0 compares raw totals
    std::vector<data::Pair> pairs;                // the test sentences compared
    ch01::Evaluation greedy, beam;                // greedy outputs on them (in batches), and beam search's
    std::vector<Hypothesis> greedy_one, beam_k;   // beam_search with beam 1 (greedy) and beam_size
    std::size_t greedy_agrees = 0;                // sentences where beam 1 gives batched greedy's output
    double greedy_log_probability = 0, beam_log_probability = 0;   // mean over the sentences
    LogProbabilityCounts counts;
    // Words per output (without <eos>), beside the references': an unnormalised total favours
    // short outputs, and these say whether the beam took that bait.
    double greedy_length = 0, beam_length = 0, reference_length = 0;   // means
    std::size_t beam_shorter = 0, beam_longer = 0;                      // sentences, against greedy's
    double greedy_seconds = 0, beam_seconds = 0;  // CPU seconds, one sentence at a time
};

// The beam size of part 7 unless --beam says otherwise; its ranges were measured with it.
constexpr std::size_t default_beam_size = 4;

// How many test sentences part 7 decodes: beam search goes one sentence at a time, and the
// default run must stay within its time budget.
std::size_t beam_test_sentences(bool quick);

// Decodes the first beam_test_sentences(quick) test pairs greedily (chapter 01's loop, in
// batches, through the cache), then one at a time with beam 1 (greedy, raw totals) and
// beam_size with this length_penalty, and prints the comparison. beam_size must be at least 2.
BeamComparison compare_greedy_and_beam(CachedTranslationModel<float>& model, const ch01::Task& task,
                                       std::size_t beam_size, double length_penalty, bool quick);

// Records beam_size, the sentences compared and the CPU times as settings; BLEU, exact match,
// mean log-probabilities and the below/equal/above counts as metrics, each with its row of
// `ranges` if it has one (empty ranges: none).
void record_beam_comparison(Summary& summary, const BeamComparison& comparison, const Ranges& ranges);

// --translate with --beam: the learner's sentence, greedy and by beam search, with the
// model's log-probability of each.
void translate_both_ways(CachedTranslationModel<float>& model, const ch01::Task& task, const std::string& sentence,
                         std::size_t beam_size, double length_penalty = 0);

}  // namespace attn::ch08
