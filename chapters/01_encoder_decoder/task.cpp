// The chapter's tasks (see task.hpp).
#include "chapters/01_encoder_decoder/task.hpp"

#include "common/data/dates.hpp"
#include "common/data/toy_translation.hpp"
#include "common/cli.hpp"
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

}  // namespace

Task load_task(const std::string& name, const std::string& tsv_path, std::uint64_t seed, bool quick, bool swap_columns) {
    Task task;
    if (!tsv_path.empty()) {
        data::TsvOptions options;
        options.seed = seed;
        options.swap_columns = swap_columns;
        task.name = "tsv";
        try {
            task.corpus = data::read_tsv_corpus(tsv_path, options);
        } catch (const std::runtime_error& error) {
            throw InputError(error.what());   // "file:line: what is wrong" -> exit code 2
        }
        task.bucket_edges = {10, 20, 30, 40};
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
