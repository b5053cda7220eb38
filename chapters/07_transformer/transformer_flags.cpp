#include "chapters/07_transformer/transformer_flags.hpp"

#include "chapters/01_encoder_decoder/memory_estimate.hpp"
#include "chapters/07_transformer/recipes.hpp"
#include "common/memory.hpp"

#include <algorithm>
#include <string>

namespace attn::ch07 {

void add_transformer_flags(CommandLine& cli, ch01::AppSettings& settings, TransformerFlags& flags) {
    cli.option("norm", &flags.norm, "where the layer norms sit: post (the paper, PyTorch's default) or pre", "post|pre");
    cli.option("heads", &flags.heads, "attention heads per layer; d_model must be a multiple (default: 4; 2 with --quick)", 1, 64);
    cli.option("feed-forward", &flags.feed_forward, "the feed-forward layers' hidden size (default: 256; 64 with --quick)", 1, 8192);
    cli.option("layers", &flags.layers, "encoder blocks, and as many decoder blocks (default: 2; 1 with --quick)", 1, 12);
    cli.option("warmup", &settings.warmup, "learning-rate warm-up steps, then 1/sqrt(step); 0: no warm-up, the schedule of chapters 01-02 (constant, or a cosine down to lr * --lr-end) (default: the recipe's)", 0, 1000000);
    cli.option("label-smoothing", &settings.label_smoothing, "share of the target probability spread over the vocabulary in the training loss (default: the recipe's)");
    cli.flag("ablations", &flags.ablations, "part 9: also train pre-norm, no-warm-up and batch-norm variants of the model (three more trainings)");
    cli.option("embedding-init", &flags.embedding_init, "embedding tables start N(0, 1/d) (scaled) or N(0, 1) (standard, PyTorch's)", "scaled|standard");
}

void refuse_moved_flags(int argc, const char* const* argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--beam" || arg.rfind("--beam=", 0) == 0)
            throw UsageError("--beam: beam search is taught in chapter 08 now, on this chapter's model: ./course run 08 --beam 4");
    }
}

void finish_transformer_flags(const CommandLine& cli, ch01::AppSettings& settings, TransformerFlags& flags) {
    if (flags.ablations && !settings.load.empty())
        throw UsageError("--ablations compares trainings with the main model's, which --load skips: drop one of them", cli.usage());
    if (flags.ablations && settings.warmup == 0)
        throw UsageError("--ablations trains a variant without the warm-up, which --warmup 0 already drops: give --warmup N > 0", cli.usage());
    if (flags.norm != "post" && flags.norm != "pre") throw UsageError("--norm must be post or pre, got '" + flags.norm + "'", cli.usage());
    if (flags.embedding_init != "scaled" && flags.embedding_init != "standard")
        throw UsageError("--embedding-init must be scaled or standard, got '" + flags.embedding_init + "'", cli.usage());
    if (!cli.given("embedding")) settings.embedding = settings.run.quick ? QuickSizes{}.d_model : 64;   // for both tasks
    if (settings.run.quick) {   // a smaller model, except for what the command line sets
        if (!cli.given("heads")) flags.heads = QuickSizes{}.heads;
        if (!cli.given("feed-forward")) flags.feed_forward = QuickSizes{}.feed_forward;
        if (!cli.given("layers")) flags.layers = QuickSizes{}.layers;
    }
    if (settings.embedding % 2 != 0 || settings.embedding % flags.heads != 0)
        throw UsageError("--embedding (d_model) must be even and a multiple of --heads", cli.usage());
    settings.measured_defaults = settings.measured_defaults && flags.norm == "post" && flags.embedding_init == "scaled";
    for (const char* flag : {"heads", "feed-forward", "layers"})
        settings.measured_defaults = settings.measured_defaults && !cli.given(flag);
}

TranslationSizes translation_sizes(const ch01::AppSettings& settings, const TransformerFlags& flags, const ch01::Task& task) {
    TranslationSizes sizes;
    sizes.source_vocab = task.source_vocab.size();
    sizes.target_vocab = task.target_vocab.size();
    sizes.transformer.d_model = static_cast<std::size_t>(settings.embedding);
    sizes.transformer.heads = static_cast<std::size_t>(flags.heads);
    sizes.transformer.feed_forward = static_cast<std::size_t>(flags.feed_forward);
    sizes.transformer.encoder_layers = sizes.transformer.decoder_layers = static_cast<std::size_t>(flags.layers);
    sizes.transformer.norm = flags.norm == "pre" ? NormPlacement::pre : NormPlacement::post;
    sizes.embedding_init = flags.embedding_init == "standard" ? EmbeddingInit::standard : EmbeddingInit::scaled;
    return sizes;
}

std::uint64_t transformer_training_bytes(const TranslationSizes& sizes, std::size_t batch, const ch01::Task& task) {
    const TransformerSizes& t = sizes.transformer;
    const std::uint64_t d = t.d_model, ff = t.feed_forward, h = t.heads;
    const std::uint64_t encoder_layer = 4 * d * d + 2 * d * ff + ff + 9 * d;   // attention, feed-forward, two norms
    const std::uint64_t decoder_layer = 8 * d * d + 2 * d * ff + ff + 15 * d;  // two attentions, feed-forward, three norms
    const std::uint64_t parameters = d * (sizes.source_vocab + sizes.target_vocab) + t.encoder_layers * encoder_layer +
                                     t.decoder_layers * decoder_layer + (d + 1) * sizes.target_vocab;
    const auto [source_len, target_len] = ch01::longest_training_pair(task);
    const std::uint64_t n = std::max(source_len, target_len);
    // Floats the tape keeps per token and layer: an encoder layer has one attention and two
    // norms, a decoder layer two attentions (self and cross) and three norms. (Counting the
    // decoder like the encoder once let 256-wide runs at batch 256 start with 756 MiB estimated
    // and 977 MiB needed.)
    const std::uint64_t encoder_per_token = 12 * d + 3 * ff + 4 * h * n;
    const std::uint64_t decoder_per_token = 20 * d + 3 * ff + 8 * h * n;
    const std::uint64_t tape = std::uint64_t{batch} *
                               (t.encoder_layers * source_len * encoder_per_token + t.decoder_layers * target_len * decoder_per_token) *
                               sizeof(float);
    return ch01::program_bytes + ch01::parameter_bytes(parameters) + tape +
           ch01::output_score_bytes(batch, target_len, sizes.target_vocab);
}

void require_transformer_training_memory(const TranslationSizes& sizes, std::size_t batch, const ch01::Task& task) {
    const TransformerSizes& t = sizes.transformer;
    require_memory(transformer_training_bytes(sizes, batch, task),
                   "a Transformer with d_model " + std::to_string(t.d_model) + ", " + std::to_string(t.heads) + " heads, feed-forward " +
                       std::to_string(t.feed_forward) + " and " + std::to_string(t.encoder_layers) + " + " +
                       std::to_string(t.decoder_layers) + " layers at batch " + std::to_string(batch),
                   "lower --embedding, --feed-forward, --layers or --batch");
}

}  // namespace attn::ch07
