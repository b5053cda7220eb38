// Greedy translation of a whole data set, and its scores overall and by source length.
#pragma once
#include "chapters/01_encoder_decoder/seq2seq.hpp"
#include "chapters/01_encoder_decoder/task.hpp"
#include "common/metrics.hpp"

#include <string>
#include <vector>

namespace attn::ch01 {

struct BucketScores {
    std::string label;          // "31-40"
    std::size_t count = 0;      // sentences in the bucket; 0: no scores (shown as n/a)
    metrics::Scores scores{};   // BLEU, token accuracy, exact match
};

struct Evaluation {
    std::size_t count = 0;      // sentences scored
    metrics::Scores overall{};
    std::vector<BucketScores> buckets;
    std::vector<std::vector<std::string>> hypotheses;   // one per pair, in order
};

// Greedy outputs (as tokens) for every pair's source, in batches, without a tape.
template <class T>
std::vector<std::vector<std::string>> translate(Seq2SeqModel<T>& model, const Task& task,
                                                const std::vector<data::Pair>& pairs);

// The length buckets of a task: labels "1-10", "11-20", ... with their bounds.
struct Bucket {
    std::string label;
    std::size_t lowest, highest;   // source lengths, both included
};
std::vector<Bucket> length_buckets(const Task& task);

// Greedy outputs of every pair, scored by score_outputs.
template <class T>
Evaluation evaluate(Seq2SeqModel<T>& model, const Task& task, const std::vector<data::Pair>& pairs);

// The scores of given outputs (hypotheses[i] for pairs[i]), overall and by source length:
// any decoder's outputs, scored the same way.
Evaluation score_outputs(const Task& task, const std::vector<data::Pair>& pairs,
                         std::vector<std::vector<std::string>> hypotheses);

// Prints "source => output (reference)" for the first `count` pairs.
void show_examples(const Task& task, const std::vector<data::Pair>& pairs,
                   const std::vector<std::vector<std::string>>& hypotheses, std::size_t count);

}  // namespace attn::ch01
