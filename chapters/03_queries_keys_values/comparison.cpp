// Chapter 02's scores for the comparison (see comparison.hpp).
#include "chapters/03_queries_keys_values/comparison.hpp"

#include "chapters/02_bahdanau_attention/bahdanau.hpp"
#include "common/summary.hpp"

#include <iostream>
#include <stdexcept>

namespace attn::ch03 {

namespace {

const std::filesystem::path chapter02_summary = "out/02_bahdanau_attention/summary.json";

double number(const std::map<std::string, std::string>& saved, const std::string& key) {
    const auto found = saved.find(key);
    if (found == saved.end() || found->second == "null")
        throw std::runtime_error(chapter02_summary.string() + " has no value for '" + key + "'");
    return std::stod(found->second);
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

AdditiveScores chapter02_scores(const ch01::AppSettings& settings, const ch01::Task& task) {
    ch01::AppSettings reference = settings;
    reference.run.variant = "reference";   // compare with chapter 02's reference run
    reference.load.clear();
    if (std::filesystem::exists(chapter02_summary)) {
        const std::map<std::string, std::string> saved = read_summary(chapter02_summary);
        if (ch01::same_settings(saved, reference, task))
            return {from_summary(saved, task), number(saved, "steps_per_second"),
                    chapter02_summary.string() + " (same task, settings and seed)"};
    }
    std::cout << "   no matching run of chapter 02 in " << chapter02_summary.string() << ": training its model now\n";
    Rng rng(settings.run.seed);
    ch02::BahdanauSeq2Seq<float> model(ch01::model_sizes(settings, task), rng);
    const ch01::TrainLog log = ch01::train(model, task, ch01::train_config(settings, "   chapter 02"));
    return {ch01::evaluate(model, task, task.corpus.test), log.steps_per_second, "trained now with the same settings"};
}

}  // namespace attn::ch03
