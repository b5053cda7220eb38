// The chapter's tasks: toy French->English (word level), dates (character level), or a
// tab-separated corpus, each with its vocabularies and length buckets.
#pragma once
#include "common/data/corpus.hpp"
#include "common/data/vocab.hpp"

#include <string>
#include <vector>

namespace attn::ch01 {

struct Task {
    std::string name;                        // "translation", "dates" or "tsv"
    data::Corpus corpus;
    data::Vocab source_vocab, target_vocab;
    std::vector<std::size_t> bucket_edges;   // source lengths: {10, 20, 30, 40} gives 1-10, ..., 31-40
    std::size_t max_output_len;              // greedy decoding stops here
};

// name: "translation" or "dates"; tsv_path (if not empty) replaces them with your corpus
// (swap_columns: the file has target<TAB>source; level: words or characters), whose length
// buckets are the quartiles of its own source lengths. quick: a small corpus for CI-sized runs.
// Throws std::invalid_argument for an unknown task, InputError for a bad TSV file.
Task load_task(const std::string& name, const std::string& tsv_path, std::uint64_t seed, bool quick,
               bool swap_columns = false, data::TokenLevel level = data::TokenLevel::word);

}  // namespace attn::ch01
