// Chapter 01's scores for the comparison (see comparison.hpp).
#include "chapters/02_bahdanau_attention/comparison.hpp"

#include "common/summary.hpp"

#include <iostream>

namespace attn::ch02 {

namespace {

const std::filesystem::path chapter01_summary = "out/01_encoder_decoder/summary.json";

double number(const std::map<std::string, std::string>& saved, const std::string& key) {
    const auto found = saved.find(key);
    return found == saved.end() ? 0.0 : std::stod(found->second);
}

ch01::Evaluation from_summary(const std::map<std::string, std::string>& saved, const ch01::Task& task) {
    ch01::Evaluation evaluation;
    evaluation.overall = {number(saved, "test_bleu"), number(saved, "test_token_accuracy"), number(saved, "test_exact_match")};
    std::size_t lower = 1;
    for (const std::size_t edge : task.bucket_edges) {
        ch01::BucketScores bucket;
        bucket.label = std::to_string(lower) + "-" + std::to_string(edge);
        bucket.count = static_cast<std::size_t>(number(saved, "test_count_" + bucket.label));
        bucket.scores = {number(saved, "test_bleu_" + bucket.label), number(saved, "test_token_accuracy_" + bucket.label),
                         number(saved, "test_exact_match_" + bucket.label)};
        evaluation.buckets.push_back(bucket);
        lower = edge + 1;
    }
    return evaluation;
}

}  // namespace

Chapter01Scores chapter01_scores(const ch01::AppSettings& settings, const ch01::Task& task) {
    ch01::AppSettings reference = settings;
    reference.run.variant = "reference";   // docs/design.md, "Where runs go": compare with chapter 01's reference run
    reference.load.clear();
    if (std::filesystem::exists(chapter01_summary)) {
        const std::map<std::string, std::string> saved = read_summary(chapter01_summary);
        if (ch01::same_settings(saved, reference, task))
            return {from_summary(saved, task), chapter01_summary.string() + " (same task, settings and seed)"};
    }
    std::cout << "   no matching run of chapter 01 in " << chapter01_summary.string() << ": training its model now\n";
    Rng rng(settings.run.seed);
    ch01::ContextSeq2Seq<float> model(ch01::model_sizes(settings, task), rng);
    ch01::train(model, task, ch01::train_config(settings, "   chapter 01"));
    return {ch01::evaluate(model, task, task.corpus.test), "trained now with the same settings"};
}

}  // namespace attn::ch02
