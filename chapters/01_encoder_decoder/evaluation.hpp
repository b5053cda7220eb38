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
    std::size_t count = 0;      // sentences in the bucket
    metrics::Scores scores;     // BLEU, token accuracy, exact match
};

struct Evaluation {
    metrics::Scores overall;
    std::vector<BucketScores> buckets;
    std::vector<std::vector<std::string>> hypotheses;   // one per pair, in order
};

// Greedy outputs (as tokens) for every pair's source, in batches, without a tape.
template <class T>
std::vector<std::vector<std::string>> translate(Seq2SeqModel<T>& model, const Task& task,
                                                const std::vector<data::Pair>& pairs);

template <class T>
Evaluation evaluate(Seq2SeqModel<T>& model, const Task& task, const std::vector<data::Pair>& pairs);

// Prints "source => output (reference)" for the first `count` pairs.
void show_examples(const Task& task, const std::vector<data::Pair>& pairs,
                   const std::vector<std::vector<std::string>>& hypotheses, std::size_t count);

}  // namespace attn::ch01
