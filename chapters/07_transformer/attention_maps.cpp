// The attention heatmaps of one translation (see attention_maps.hpp).
#include "chapters/07_transformer/attention_maps.hpp"

#include "chapters/01_encoder_decoder/evaluation.hpp"
#include "chapters/07_transformer/figures.hpp"
#include "common/data/tokenize.hpp"

namespace attn::ch07 {

namespace {
std::vector<std::string> shown(const std::vector<std::string>& tokens) {
    std::vector<std::string> labels;
    for (const std::string& token : tokens) labels.push_back(data::display_token(token));
    return labels;
}
}  // namespace

AttentionMaps attention_maps(TransformerSeq2Seq<float>& model, const ch01::Task& task, const data::Pair& pair,
                             const std::string& title) {
    AttentionMaps maps;
    maps.output = ch01::translate(model, task, {pair}).front();
    const NoGradGuard no_grad;
    const bool was_training = model.training();
    model.eval();
    const data::Pair replay{pair.source, maps.output};
    const TranslationOutput<float> out =
        model.forward_with_weights(data::make_batch({replay}, {0}, task.source_vocab, task.target_vocab));
    model.train(was_training);

    std::vector<std::string> fed{"<bos>"}, written = maps.output;   // decoder inputs; what each position writes
    fed.insert(fed.end(), maps.output.begin(), maps.output.end());
    written.push_back("<eos>");
    const std::vector<std::string> source = shown(pair.source);
    maps.encoder_self = layers_and_heads(out.transformer.encoder.self_weights, source, source,
                                         title + ": encoder self-attention");
    maps.decoder_self = layers_and_heads(out.transformer.self_weights, shown(fed), shown(fed),
                                         title + ": decoder causal self-attention");
    maps.cross = layers_and_heads(out.transformer.cross_weights, shown(written), source, title + ": cross-attention");
    return maps;
}

}  // namespace attn::ch07
