// The chapter's tasks (see task.hpp).
#include "chapters/01_encoder_decoder/task.hpp"

#include "common/data/dates.hpp"
#include "common/data/toy_translation.hpp"
#include "common/cli.hpp"
#include "common/data/batching.hpp"
#include "common/data/tsv.hpp"

#include <algorithm>
#include <stdexcept>

namespace attn::ch01 {

namespace {

std::size_t longest_target(const std::vector<data::Pair>& pairs) {
    std::size_t longest = 0;
    for (const data::Pair& pair : pairs) longest = std::max(longest, pair.target.size());
    return longest;
}

// Real sentences are short and their lengths bunch up: fixed buckets of 10 would put nearly
// every test pair in 1-10, so a corpus is cut at the quartiles of its own source lengths.
void set_quantile_buckets(Task& task) {
    std::vector<std::size_t> lengths;
    for (const auto* split : {&task.corpus.train, &task.corpus.validation, &task.corpus.test})
        for (const data::Pair& pair : *split) lengths.push_back(pair.source.size());
    task.bucket_edges = data::quantile_edges(lengths, 4);
    std::string labels;
    for (std::size_t k = 0, low = 1; k < task.bucket_edges.size(); low = task.bucket_edges[k++] + 1)
        labels += (k ? ", " : "") + std::to_string(low) + "-" + std::to_string(task.bucket_edges[k]);
    task.corpus.description += "\n   length buckets at the quartiles of the source lengths: " + labels;
}

}  // namespace

Task load_task(const std::string& name, const std::string& tsv_path, std::uint64_t seed, bool quick, bool swap_columns,
               data::TokenLevel level) {
    Task task;
    if (!tsv_path.empty()) {
        data::TsvOptions options;
        options.seed = seed;
        options.swap_columns = swap_columns;
        options.level = level;
        if (level == data::TokenLevel::character) options.max_len = 100;   // 40 characters is a very short sentence
        task.name = "tsv";
        try {
            task.corpus = data::read_tsv_corpus(tsv_path, options);
        } catch (const std::runtime_error& error) {
            throw InputError(error.what());   // "file:line: what is wrong" -> exit code 2
        }
        set_quantile_buckets(task);
    } else if (name == "translation") {
        task.name = name;
        task.corpus = data::make_toy_translation_corpus(quick ? data::SplitSizes{4000, 200, 400}
                                                              : data::toy_translation_default_sizes, seed);
        task.bucket_edges = {10, 20, 30, 40};
    } else if (name == "dates") {
        task.name = name;
        task.corpus = data::make_dates_corpus(quick ? data::SplitSizes{3000, 200, 200} : data::dates_default_sizes, seed);
        task.bucket_edges = {10, 15, 20, 30};   // characters
    } else {
        throw std::invalid_argument("unknown task '" + name + "' (choose translation or dates, or give --data FILE.tsv)");
    }
    task.source_vocab = data::Vocab::build(data::source_sentences(task.corpus.train));
    task.target_vocab = data::Vocab::build(data::target_sentences(task.corpus.train));
    // Room for a little more than the longest reference: a model that does not stop in time
    // is penalised by BLEU, not cut off at the exact right length.
    task.max_output_len = longest_target(task.corpus.train) + 5;
    return task;
}

}  // namespace attn::ch01
