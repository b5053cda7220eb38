// Translation and scores by source length (see evaluation.hpp).
#include "chapters/01_encoder_decoder/evaluation.hpp"

#include "common/autodiff/ops.hpp"
#include "common/data/tokenize.hpp"

#include <iostream>
#include <stdexcept>
#include <string>
#include <utility>

namespace attn::ch01 {

template <class T>
std::vector<std::vector<std::string>> translate(Seq2SeqModel<T>& model, const Task& task,
                                                const std::vector<data::Pair>& pairs) {
    const NoGradGuard no_grad;
    model.eval();
    std::vector<std::vector<std::string>> outputs;
    for (const std::vector<std::size_t>& indices : data::ordered_batches(pairs.size(), 256)) {
        const data::Batch batch = data::make_batch(pairs, indices, task.source_vocab, task.target_vocab);
        const DecodeStep<T> step = model.decoder(batch.source, batch.source_lens);
        for (const std::vector<std::int64_t>& ids :
             greedy_decode<T>(step, indices.size(), task.max_output_len, data::bos_id, data::eos_id))
            outputs.push_back(task.target_vocab.decode(ids));
    }
    model.train();
    return outputs;
}

std::vector<Bucket> length_buckets(const Task& task) {
    std::vector<Bucket> buckets;
    std::size_t lowest = 1;
    for (const std::size_t edge : task.bucket_edges) {
        buckets.push_back({std::to_string(lowest) + "-" + std::to_string(edge), lowest, edge});
        lowest = edge + 1;
    }
    return buckets;
}

template <class T>
Evaluation evaluate(Seq2SeqModel<T>& model, const Task& task, const std::vector<data::Pair>& pairs) {
    return score_outputs(task, pairs, translate(model, task, pairs));
}

Evaluation score_outputs(const Task& task, const std::vector<data::Pair>& pairs,
                         std::vector<std::vector<std::string>> hypotheses) {
    if (hypotheses.size() != pairs.size())
        throw std::invalid_argument("score_outputs: " + std::to_string(hypotheses.size()) + " outputs for " +
                                    std::to_string(pairs.size()) + " pairs");
    Evaluation result;
    result.hypotheses = std::move(hypotheses);
    result.count = pairs.size();
    result.overall = metrics::score_all(result.hypotheses, data::target_sentences(pairs));
    for (const Bucket& range : length_buckets(task)) {
        BucketScores bucket;
        bucket.label = range.label;
        std::vector<std::vector<std::string>> hypotheses, references;
        for (std::size_t i = 0; i < pairs.size(); ++i)
            if (pairs[i].source.size() >= range.lowest && pairs[i].source.size() <= range.highest) {
                hypotheses.push_back(result.hypotheses[i]);
                references.push_back(pairs[i].target);
            }
        bucket.count = hypotheses.size();
        if (bucket.count > 0) bucket.scores = metrics::score_all(hypotheses, references);
        result.buckets.push_back(bucket);
    }
    return result;
}

void show_examples(const Task& task, const std::vector<data::Pair>& pairs,
                   const std::vector<std::vector<std::string>>& hypotheses, std::size_t count) {
    const data::TokenLevel level = task.corpus.level;
    for (std::size_t i = 0; i < std::min(count, pairs.size()); ++i) {
        const bool right = hypotheses[i] == pairs[i].target;
        std::cout << "    " << (right ? "ok  " : "miss") << "  " << data::detokenize(pairs[i].source, level) << "\n"
                  << "          => " << data::detokenize(hypotheses[i], level);
        if (!right) std::cout << "   (expected: " << data::detokenize(pairs[i].target, level) << ")";
        std::cout << "\n";
    }
}

template std::vector<std::vector<std::string>> translate(Seq2SeqModel<float>&, const Task&, const std::vector<data::Pair>&);
template std::vector<std::vector<std::string>> translate(Seq2SeqModel<double>&, const Task&, const std::vector<data::Pair>&);
template Evaluation evaluate(Seq2SeqModel<float>&, const Task&, const std::vector<data::Pair>&);
template Evaluation evaluate(Seq2SeqModel<double>&, const Task&, const std::vector<data::Pair>&);

}  // namespace attn::ch01
