// Alignment heatmaps (see alignment.hpp).
#include "chapters/02_bahdanau_attention/alignment.hpp"

#include "common/data/tokenize.hpp"

#include <algorithm>

namespace attn::ch02 {

Alignment align(AttentionSeq2Seq<float>& model, const ch01::Task& task, const data::Pair& pair, const std::string& title) {
    const NoGradGuard no_grad;
    const bool was_training = model.training();
    model.eval();
    const data::Batch batch = data::make_batch({pair}, {0}, task.source_vocab, task.target_vocab);
    const AttentionDecodeStep<float> attend = model.attention_decoder(batch.source, batch.source_lens);
    std::vector<Array<float>> weights;   // alpha_t of every step taken: (1, S) each
    const ch01::DecodeStep<float> step = [&](const IndexVector& previous) {
        const ModelOutput<float> out = attend(previous);
        weights.push_back(out.weights.value());
        return out.logits;
    };
    const std::vector<std::int64_t> ids =
        ch01::greedy_decode<float>(step, 1, task.max_output_len, data::bos_id, data::eos_id).front();
    model.train(was_training);
    Alignment result;
    result.output = task.target_vocab.decode(ids);
    const std::size_t steps = weights.size(), S = pair.source.size();
    std::vector<std::string> rows = result.output;
    if (steps > rows.size()) rows.push_back("<eos>");   // the step that said stop
    result.heatmap.title = title;
    result.heatmap.xlabel = "source";
    result.heatmap.ylabel = "output";
    result.heatmap.values = xt::zeros<double>({steps, S});
    for (std::size_t t = 0; t < steps; ++t)
        for (std::size_t j = 0; j < S; ++j) result.heatmap.values(t, j) = weights[t](0, j);
    for (const std::string& token : pair.source) result.heatmap.x_tick_labels.push_back(data::display_token(token));
    for (std::size_t t = 0; t < steps; ++t)
        result.heatmap.y_tick_labels.push_back(t < rows.size() ? data::display_token(rows[t]) : "?");
    result.heatmap.colorbar_label = "attention weight";
    result.heatmap.z_min = 0.0;
    result.heatmap.z_max = 1.0;
    return result;
}

const data::Pair& pick_example(const std::vector<data::Pair>& pairs, const std::vector<std::string>& phrase,
                               std::size_t fallback_length) {
    const data::Pair* best = nullptr;
    for (const data::Pair& pair : pairs) {
        const bool has = !phrase.empty() &&
                         std::search(pair.source.begin(), pair.source.end(), phrase.begin(), phrase.end()) != pair.source.end();
        if (has && (!best || pair.source.size() < best->source.size())) best = &pair;
    }
    if (best) return *best;
    for (const data::Pair& pair : pairs)
        if (!best || std::abs(long(pair.source.size()) - long(fallback_length)) < std::abs(long(best->source.size()) - long(fallback_length)))
            best = &pair;
    return *best;
}

}  // namespace attn::ch02
