// Part 8 of chapter 08: chapter 07's model with fewer key/value heads (see key_value_heads_study.hpp).
#include "chapters/08_attention_at_scale/key_value_heads_study.hpp"

#include "chapters/01_encoder_decoder/training.hpp"
#include "chapters/07_transformer/translation_training.hpp"
#include "chapters/08_attention_at_scale/cache_arithmetic.hpp"
#include "chapters/08_attention_at_scale/decoding_speed.hpp"
#include "chapters/08_attention_at_scale/grouped_query_translation.hpp"
#include "common/random.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace attn::ch08 {

std::size_t decoder_key_value_weights(const ch07::TransformerSizes& sizes, std::size_t kv_heads) {
    const std::size_t head_size = sizes.d_model / sizes.heads;
    return sizes.decoder_layers * 2 * 2 * kv_heads * head_size * (sizes.d_model + 1);
}

std::vector<std::size_t> fewer_key_value_heads(std::size_t heads) {
    std::vector<std::size_t> counts;
    for (std::size_t G = heads / 2; G >= 1 && heads % G == 0; G /= 2) counts.push_back(G);
    return counts;
}

namespace {

// A model decoding as chapter 07's does, the prefix run again at every step: its own
// decoder() steps through the cache, whose float rounding can flip a close choice. Every row of
// the table is then decoded alike, and the G = H row (part 6's model) scores what chapter 07's
// run scores. Model: CachedTranslationModel<float> or GroupedQueryTranslation<float>.
template <class Model>
class RecomputingDecoder : public ch01::Seq2SeqModel<float> {
public:
    explicit RecomputingDecoder(Model& model) : model_(model) { this->register_module("model", model); }
    Var<float> forward(const data::Batch& batch) override { return model_.forward(batch); }
    ch01::DecodeStep<float> decoder(const IndexMatrix& source, const IndexVector& source_lens) override {
        return model_.recomputing_decoder(source, source_lens);
    }
    ch01::ModelSizes sizes() const override { return model_.sizes(); }

private:
    Model& model_;
};

// What every row has whatever its model: sizes, the cache, the validation loss and the test set decoded greedily.
KeyValueHeadsRun score(ch01::Seq2SeqModel<float>& model, const ch01::Task& task, const ch07::TransformerSizes& sizes,
                       std::size_t kv_heads) {
    KeyValueHeadsRun run;
    run.kv_heads = kv_heads;
    run.parameters = model.parameter_count();
    run.key_value_weights = decoder_key_value_weights(sizes, kv_heads);
    run.cache_bytes_per_token = cache_bytes_per_token({sizes.decoder_layers, sizes.heads, sizes.d_model / sizes.heads, sizeof(float)}, kv_heads);
    run.valid_loss = ch01::mean_loss(model, task, task.corpus.validation);
    run.test = ch01::evaluate(model, task, task.corpus.test);
    return run;
}

// Trained as part 6's model was: chapter 07's training, its settings, the same seed for the
// first draws (the draws differ from part 6's, as the shapes do).
KeyValueHeadsRun train_and_score(const Chapter07Translation& chapter07, std::size_t kv_heads) {
    const ch01::AppSettings& settings = chapter07.chapter07.settings;
    const ch07::TranslationSizes& sizes = chapter07.model->translation_sizes();
    Rng rng(settings.run.seed);
    GroupedQueryTranslation<float> model(sizes, kv_heads, rng);
    std::printf("\n   G = %zu: %s, %zu parameters.", kv_heads, model.architecture().c_str(), model.parameter_count());
    const ch07::Training training = ch07::train_translation(model, chapter07.task, settings,
                                                            ch01::train_config(settings, "   training"), "  ");
    RecomputingDecoder<GroupedQueryTranslation<float>> recomputing(model);
    KeyValueHeadsRun run = score(recomputing, chapter07.task, sizes.transformer, kv_heads);
    run.train_seconds = training.log.seconds;
    run.train_cpu_seconds = training.cpu_seconds;
    // The cache of G heads per layer (08.5 over grouped layers) must give the same scores.
    const std::vector<data::Pair> sentences(chapter07.task.corpus.test.begin(),
                                            chapter07.task.corpus.test.begin() +
                                                std::min<std::ptrdiff_t>(16, chapter07.task.corpus.test.size()));
    run.cache_difference = measure_generation(model, chapter07.task, sentences, 32, 1).largest_difference;
    std::printf("   Decoding %zu test sentences 32 tokens each through its cache (08.5, G = %zu key/value heads per layer)\n"
                "   and by recomputing the prefix: largest difference of the scores %.1e, float rounding.\n",
                sentences.size(), kv_heads, run.cache_difference);
    return run;
}

void print_table(const std::vector<KeyValueHeadsRun>& runs) {
    std::printf("        G   parameters   k/v weights   cache bytes/token   training CPU s   valid loss    BLEU    exact\n");
    for (const KeyValueHeadsRun& run : runs)
        std::printf("   %6zu   %10zu   %11zu   %17llu   %14.0f   %10.3f   %5.3f   %5.1f%%\n", run.kv_heads, run.parameters,
                    run.key_value_weights, static_cast<unsigned long long>(run.cache_bytes_per_token), run.train_cpu_seconds,
                    run.valid_loss, run.test.overall.bleu, 100 * run.test.overall.exact_match);
}

void record(Summary& summary, const KeyValueHeadsRun& run, const Ranges& ranges) {
    const std::string g = "_g" + std::to_string(run.kv_heads), with = " with G = " + std::to_string(run.kv_heads);
    add_metric(summary, ranges, "gqa_valid_loss" + g, "validation loss" + with, run.valid_loss);
    add_metric(summary, ranges, "gqa_test_bleu" + g, "test BLEU, greedy" + with, run.test.overall.bleu);
    add_metric(summary, ranges, "gqa_test_exact_match" + g, "test exact match, greedy" + with, run.test.overall.exact_match);
    // Part 6's model was checked by part 6 (cache_difference); float32 rounding, as there.
    if (run.cache_difference >= 0)
        summary.metric("gqa_cache_difference" + g, "cached vs recomputed scores" + with + ", largest difference",
                       run.cache_difference, 0.0, 1e-3);
    summary.setting("gqa_parameters" + g, static_cast<double>(run.parameters));
    summary.setting("gqa_key_value_weights" + g, static_cast<double>(run.key_value_weights));
    summary.setting("gqa_train_cpu_seconds" + g, run.train_cpu_seconds);
}

}  // namespace

std::vector<KeyValueHeadsRun> study_key_value_heads(const Chapter07Translation& chapter07, Summary& summary,
                                                    const Ranges& ranges) {
    const ch07::TransformerSizes& sizes = chapter07.model->translation_sizes().transformer;
    const std::vector<std::size_t> fewer = fewer_key_value_heads(sizes.heads);
    std::printf("\n8. Fewer key/value heads, measured: chapter 07's model trained again with G = ");
    for (std::size_t k = 0; k < fewer.size(); ++k) std::printf("%s%zu", k == 0 ? "" : (k + 1 == fewer.size() ? " and " : ", "), fewer[k]);
    std::printf(" key/value heads in its decoder's\n"
                "   self- and cross-attention (08.4; the encoder keeps its %zu), by chapter 07's training at part 6's seed,\n"
                "   data, sizes and budget (%d steps); G = %zu is part 6's model. Each decodes the %zu test sentences greedily.\n",
                sizes.heads, chapter07.chapter07.settings.run.steps, sizes.heads, chapter07.task.corpus.test.size());
    RecomputingDecoder<CachedTranslationModel<float>> part6(*chapter07.model);
    std::vector<KeyValueHeadsRun> runs = {score(part6, chapter07.task, sizes, sizes.heads)};
    runs.front().train_seconds = chapter07.train_seconds;
    runs.front().train_cpu_seconds = chapter07.train_cpu_seconds;
    for (std::size_t G : fewer) runs.push_back(train_and_score(chapter07, G));

    std::printf("\n   Chapter 07's model with G key/value heads in its decoder, at the same budget:\n");
    print_table(runs);
    for (const KeyValueHeadsRun& run : runs) record(summary, run, ranges);
    return runs;
}

void mention_key_value_heads_study() {
    // No seconds here: the line stays the same from run to run.
    std::printf("\n8. Fewer key/value heads: add --kv-heads-study to train chapter 07's model again with fewer key/value\n"
                "   heads in its decoder (G = 2 and 1 at its defaults) and score them beside part 6's, each training as\n"
                "   long as part 6's.\n");
}

}  // namespace attn::ch08
