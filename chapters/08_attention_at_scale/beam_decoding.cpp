// Greedy against beam search (see beam_decoding.hpp).
#include "chapters/08_attention_at_scale/beam_decoding.hpp"

#include "chapters/01_encoder_decoder/app.hpp"
#include "common/autodiff/ops.hpp"
#include "common/data/tokenize.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <stdexcept>

namespace attn::ch08 {
namespace {

double cpu_seconds_since(std::clock_t start) {
    return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
}

double mean_log_probability(const std::vector<Hypothesis>& hypotheses) {
    double total = 0;
    for (const Hypothesis& h : hypotheses) total += h.log_probability;
    return hypotheses.empty() ? 0.0 : total / static_cast<double>(hypotheses.size());
}

std::vector<std::vector<std::string>> as_words(const ch01::Task& task, const std::vector<Hypothesis>& hypotheses) {
    std::vector<std::vector<std::string>> words;
    for (const Hypothesis& h : hypotheses) words.push_back(task.target_vocab.decode(h.tokens));   // stops at <eos>
    return words;
}

// "the cat sleeps  (log p -0.41)"
std::string shown(const ch01::Task& task, const Hypothesis& h) {
    char score[32];
    std::snprintf(score, sizeof score, "  (log p %.3f)", h.log_probability);
    return data::detokenize(task.target_vocab.decode(h.tokens), task.corpus.level) + score;
}

}  // namespace

BeamTrace trace_greedy_path(CachedTranslationModel<float>& model, const ch01::Task& task, const data::Pair& pair,
                            const std::vector<std::int64_t>& greedy_tokens, std::size_t beam_size, double length_penalty) {
    const NoGradGuard no_grad;
    model.eval();
    const data::Batch one = data::make_batch({pair}, {0}, task.source_vocab, task.target_vocab);
    const BeamStep<float> model_step = model.beam_decoder(one.source, one.source_lens);
    BeamTrace trace;
    std::vector<std::vector<std::int64_t>> rows = {{}};   // each row's tokens after <bos>
    const BeamStep<float> watched = [&](const IndexVector& previous, const std::vector<std::size_t>& parents) {
        std::vector<std::vector<std::int64_t>> next;
        bool greedy_here = false;
        for (std::size_t i = 0; i < parents.size(); ++i) {
            next.push_back(rows.at(parents[i]));
            if (trace.steps > 0) next.back().push_back(previous(i));   // the first step feeds <bos> alone
            const std::vector<std::int64_t>& row = next.back();
            greedy_here = greedy_here || (row.size() <= greedy_tokens.size() &&
                                          std::equal(row.begin(), row.end(), greedy_tokens.begin()));
        }
        rows = std::move(next);
        ++trace.steps;
        if (greedy_here) trace.greedy_steps = trace.steps;
        return model_step(previous, parents);
    };
    (void)beam_search<float>(watched, beam_size, task.max_output_len, data::bos_id, data::eos_id, length_penalty);
    model.train();
    return trace;
}

std::vector<Hypothesis> beam_translate(CachedTranslationModel<float>& model, const ch01::Task& task,
                                       const std::vector<data::Pair>& pairs, std::size_t beam_size,
                                       double length_penalty) {
    const NoGradGuard no_grad;
    model.eval();
    std::vector<Hypothesis> found;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const data::Batch one = data::make_batch(pairs, {i}, task.source_vocab, task.target_vocab);
        found.push_back(beam_search<float>(model.beam_decoder(one.source, one.source_lens), beam_size,
                                           task.max_output_len, data::bos_id, data::eos_id, length_penalty));   // (8.16)
    }
    model.train();
    return found;
}

LogProbabilityCounts compare_log_probabilities(const std::vector<Hypothesis>& greedy, const std::vector<Hypothesis>& beam) {
    if (greedy.size() != beam.size())
        throw std::invalid_argument("compare_log_probabilities: " + std::to_string(greedy.size()) + " greedy outputs but " +
                                    std::to_string(beam.size()) + " beam outputs");
    LogProbabilityCounts counts;
    double largest_fall = 0;
    for (std::size_t i = 0; i < greedy.size(); ++i) {
        // The same tokens are the same sentence: their totals may differ only by rounding
        // (the decoder ran over 1 row for one and several for the other).
        const double gain = beam[i].log_probability - greedy[i].log_probability;
        if (beam[i].tokens == greedy[i].tokens) {
            ++counts.equal;
        } else if (gain > 0) {
            ++counts.above;
        } else {
            ++counts.below;
            if (-gain > largest_fall) {
                largest_fall = -gain;
                counts.largest_fall = static_cast<std::ptrdiff_t>(i);
            }
        }
    }
    return counts;
}

std::size_t beam_test_sentences(bool quick) {
    return quick ? 100 : 500;
}

// ---- 7. Greedy against beam search on the same sentences.                             (8.16)
BeamComparison compare_greedy_and_beam(CachedTranslationModel<float>& model, const ch01::Task& task,
                                       std::size_t beam_size, double length_penalty, bool quick) {
    if (beam_size < 2) throw std::invalid_argument("compare_greedy_and_beam: beam size " + std::to_string(beam_size) + " is greedy");
    BeamComparison c;
    c.beam_size = beam_size;
    c.length_penalty = length_penalty;
    const std::vector<data::Pair>& test = task.corpus.test;
    const std::size_t n = std::min(beam_test_sentences(quick), test.size());
    c.pairs.assign(test.begin(), test.begin() + static_cast<std::ptrdiff_t>(n));

    std::clock_t start = std::clock();
    c.greedy_one = beam_translate(model, task, c.pairs, 1);   // beam 1 is greedy, scored the same way
    c.greedy_seconds = cpu_seconds_since(start);
    start = std::clock();
    c.beam_k = beam_translate(model, task, c.pairs, beam_size, length_penalty);
    c.beam_seconds = cpu_seconds_since(start);

    const std::vector<std::vector<std::string>> batched = ch01::translate(model, task, c.pairs);   // greedy, 256 at a time
    const std::vector<std::vector<std::string>> greedy_one_words = as_words(task, c.greedy_one);
    for (std::size_t i = 0; i < n; ++i) c.greedy_agrees += greedy_one_words[i] == batched[i] ? 1 : 0;
    c.greedy = ch01::score_outputs(task, c.pairs, batched);
    const std::vector<std::vector<std::string>> beam_words_of = as_words(task, c.beam_k);
    c.beam = ch01::score_outputs(task, c.pairs, beam_words_of);
    c.greedy_log_probability = mean_log_probability(c.greedy_one);
    c.beam_log_probability = mean_log_probability(c.beam_k);
    c.counts = compare_log_probabilities(c.greedy_one, c.beam_k);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t greedy_words = greedy_one_words[i].size(), beam_words = beam_words_of[i].size();
        c.greedy_length += static_cast<double>(greedy_words) / static_cast<double>(n);
        c.beam_length += static_cast<double>(beam_words) / static_cast<double>(n);
        c.reference_length += static_cast<double>(c.pairs[i].target.size()) / static_cast<double>(n);
        c.beam_shorter += beam_words < greedy_words ? 1 : 0;
        c.beam_longer += beam_words > greedy_words ? 1 : 0;
    }

    const std::string beam_label = "beam " + std::to_string(beam_size);
    char penalty[160] = "not divided by its length";   // (8.16) alone
    if (length_penalty > 0)
        std::snprintf(penalty, sizeof penalty, "for beam search divided by its length^%g (8.17, --length-penalty)",
                      length_penalty);
    std::printf("\n7. Greedy against beam search (8.16), beam %zu, on the first %zu test sentences, one sentence at a\n"
                "   time; a sentence's score is its log-probability under the model, summed over its tokens\n"
                "   and <eos>, %s:\n",
                beam_size, n, penalty);
    std::printf("    %-8s %6s %16s %16s\n", "length", "count", "BLEU greedy", ("BLEU " + beam_label).c_str());
    for (std::size_t b = 0; b < c.greedy.buckets.size(); ++b) {
        const ch01::BucketScores &g = c.greedy.buckets[b], &k = c.beam.buckets[b];
        if (g.count == 0)
            std::printf("    %-8s %6zu %16s %16s\n", g.label.c_str(), g.count, "n/a", "n/a");
        else
            std::printf("    %-8s %6zu %16.3f %16.3f\n", g.label.c_str(), g.count, g.scores.bleu, k.scores.bleu);
    }
    std::printf("    %-8s %6zu %16.3f %16.3f\n", "all", n, c.greedy.overall.bleu, c.beam.overall.bleu);
    std::printf("    %-15s %16.3f %16.3f\n", "exact match", c.greedy.overall.exact_match, c.beam.overall.exact_match);
    std::printf("    %-15s %16.3f %16.3f\n", "mean log p", c.greedy_log_probability, c.beam_log_probability);
    std::printf("    %-15s %16.2f %16.2f   (words; the references: %.2f)\n", "mean length", c.greedy_length, c.beam_length,
                c.reference_length);
    std::printf("    %-15s %16.1f %16.1f   (CPU seconds, one sentence at a time)\n", "time", c.greedy_seconds,
                c.beam_seconds);
    std::printf("   beam 1 gives the output of greedy decoding in batches on %zu of %zu sentences\n", c.greedy_agrees, n);
    std::printf("   beam %zu's output is shorter than greedy's on %zu sentences, longer on %zu\n", beam_size, c.beam_shorter,
                c.beam_longer);
    std::printf("   beam %zu's log-probability against greedy's: %zu below, %zu equal (the same output), %zu above\n",
                beam_size, c.counts.below, c.counts.equal, c.counts.above);
    if (quick && length_penalty == 0 && c.beam.overall.bleu < c.greedy.overall.bleu)   // the reversal a --quick reader sees, explained where it shows
        std::printf("   (--quick: after its short training, this model's search for the most probable whole sentence,\n"
                    "   the log-probability not divided by the length, prefers short outputs: %.1f words against greedy's\n"
                    "   %.1f (the references: %.1f), hence the lower BLEU. The default run's longer training makes the\n"
                    "   drop small; the quick ranges say where an undertrained model's beam lands, no more.)\n",
                    c.beam_length, c.greedy_length, c.reference_length);
    if (c.counts.largest_fall >= 0) {
        const std::size_t i = static_cast<std::size_t>(c.counts.largest_fall);
        std::cout << "   the sentence beam search scored furthest below greedy:\n      "
                  << data::detokenize(c.pairs[i].source, task.corpus.level) << "\n      greedy  => " << shown(task, c.greedy_one[i])
                  << "\n      " << beam_label << "  => " << shown(task, c.beam_k[i]) << "\n";
        const BeamTrace trace = trace_greedy_path(model, task, c.pairs[i], c.greedy_one[i].tokens, beam_size, length_penalty);
        if (trace.greedy_steps == trace.steps)
            std::printf("   greedy's path was still in the beam when the search stopped, after %zu steps\n", trace.steps);
        else
            std::printf("   greedy's path fell out of the beam at step %zu of %zu\n", trace.greedy_steps + 1, trace.steps);
    }
    return c;
}

void record_beam_comparison(Summary& summary, const BeamComparison& c, const Ranges& ranges) {
    const std::string on = ", first " + std::to_string(c.pairs.size()) + " test sentences";
    summary.setting("beam_sentences", static_cast<double>(c.pairs.size()));
    summary.setting("length_penalty", c.length_penalty);
    summary.setting("greedy_one_at_a_time_cpu_seconds", c.greedy_seconds);
    summary.setting("beam_cpu_seconds", c.beam_seconds);
    add_metric(summary, ranges, "beam_bleu", "BLEU of beam search" + on, c.beam.overall.bleu);
    add_metric(summary, ranges, "beam_greedy_bleu", "BLEU of greedy decoding" + on, c.greedy.overall.bleu);
    add_metric(summary, ranges, "beam_exact_match", "exact match of beam search" + on, c.beam.overall.exact_match);
    add_metric(summary, ranges, "beam_greedy_exact_match", "exact match of greedy decoding" + on, c.greedy.overall.exact_match);
    add_metric(summary, ranges, "beam_log_probability", "mean log-probability of beam search's outputs", c.beam_log_probability);
    add_metric(summary, ranges, "greedy_log_probability", "mean log-probability of greedy outputs", c.greedy_log_probability);
    add_metric(summary, ranges, "beam_below_greedy", "sentences beam search scored below greedy (log-probability)",
               static_cast<double>(c.counts.below));
    add_metric(summary, ranges, "beam_equal_greedy", "sentences where beam search gave greedy's output",
               static_cast<double>(c.counts.equal));
    add_metric(summary, ranges, "beam_above_greedy", "sentences beam search scored above greedy (log-probability)",
               static_cast<double>(c.counts.above));
    add_metric(summary, ranges, "beam_mean_length", "mean words per output of beam search" + on, c.beam_length);
    add_metric(summary, ranges, "greedy_mean_length", "mean words per output of greedy decoding" + on, c.greedy_length);
    add_metric(summary, ranges, "reference_mean_length", "mean words per reference" + on, c.reference_length);
    add_metric(summary, ranges, "beam_shorter_than_greedy", "sentences where beam search's output is shorter than greedy's",
               static_cast<double>(c.beam_shorter));
    add_metric(summary, ranges, "beam_one_is_greedy", "sentences where beam 1 gave batched greedy decoding's output",
               static_cast<double>(c.greedy_agrees));
}

void translate_both_ways(CachedTranslationModel<float>& model, const ch01::Task& task, const std::string& sentence,
                         std::size_t beam_size, double length_penalty) {
    const std::vector<data::Pair> one = {ch01::read_sentence(task, sentence)};
    const Hypothesis greedy = beam_translate(model, task, one, 1).front();
    const Hypothesis beam = beam_translate(model, task, one, beam_size, length_penalty).front();
    std::cout << "   greedy  => " << shown(task, greedy) << "\n   beam " << beam_size << "  => " << shown(task, beam) << "\n";
}

}  // namespace attn::ch08
