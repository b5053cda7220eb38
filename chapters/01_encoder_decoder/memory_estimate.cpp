// Training memory, estimated before allocating (see memory_estimate.hpp).
#include "chapters/01_encoder_decoder/memory_estimate.hpp"

#include "common/memory.hpp"

#include <algorithm>

namespace attn::ch01 {

std::pair<std::size_t, std::size_t> longest_training_pair(const Task& task) {
    std::size_t source = 1, target = 1;
    for (const data::Pair& pair : task.corpus.train) {
        source = std::max(source, pair.source.size());
        target = std::max(target, pair.target.size());
    }
    return {source, target + 1};   // + <bos> or <eos>
}

std::uint64_t parameter_bytes(std::uint64_t parameters) { return parameters * 4 * sizeof(float); }

std::uint64_t output_score_bytes(std::size_t batch, std::size_t target_len, std::size_t target_vocab) {
    return std::uint64_t{batch} * target_len * target_vocab * 3 * sizeof(float);
}

std::uint64_t gru_training_bytes(const ModelSizes& sizes, std::size_t batch, const Task& task) {
    const std::uint64_t E = sizes.embedding, H = sizes.hidden;
    // Embeddings, the encoder GRU, the decoder GRU fed [embedding; context], attention's
    // projections, the output layer (an upper count for the three decoders of chapters 01-03).
    const std::uint64_t parameters = E * (sizes.source_vocab + sizes.target_vocab) + 3 * H * (E + H + 2) +
                                     3 * H * (E + 2 * H + 2) + 2 * H * H + H + (2 * H + E + 1) * sizes.target_vocab;
    const auto [source_len, target_len] = longest_training_pair(task);
    const std::uint64_t tape = std::uint64_t{batch} * (source_len + target_len) * 30 * H * sizeof(float);
    return program_bytes + parameter_bytes(parameters) + tape + output_score_bytes(batch, target_len, sizes.target_vocab);
}

void require_gru_training_memory(const AppSettings& settings, const Task& task) {
    const auto [source_len, target_len] = longest_training_pair(task);
    require_memory(gru_training_bytes(model_sizes(settings, task), static_cast<std::size_t>(settings.batch), task),
                   "training with --batch " + std::to_string(settings.batch) + ", --hidden " + std::to_string(settings.hidden) +
                       " and --embedding " + std::to_string(settings.embedding) + " on sentences of up to " +
                       std::to_string(source_len) + " and " + std::to_string(target_len) + " tokens",
                   "lower --batch or --hidden");
}

void require_corpus_memory(const std::filesystem::path& corpus) {
    std::error_code error;
    const std::uintmax_t size = std::filesystem::file_size(corpus, error);
    if (error) return;   // the reader names what is wrong with the file
    require_memory(program_bytes + size * corpus_bytes_per_file_byte,
                   "--data " + corpus.string() + " (" + memory_text(size) + ")",
                   "reading keeps every sentence in memory, about " + std::to_string(corpus_bytes_per_file_byte) +
                       " bytes per byte of text; give a smaller corpus (head -n 100000 FILE > smaller.tsv)");
}

}  // namespace attn::ch01
