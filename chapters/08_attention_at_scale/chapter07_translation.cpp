// Chapter 07's translation model, set up by chapter 07's code (see chapter07_translation.hpp).
#include "chapters/08_attention_at_scale/chapter07_translation.hpp"

#include "chapters/07_transformer/recipes.hpp"
#include "chapters/07_transformer/translation_training.hpp"
#include "common/random.hpp"

#include <cstdio>
#include <iostream>

namespace attn::ch08 {

Chapter07Settings chapter07_settings(const std::vector<std::string>& arguments) {
    const std::string chapter07_dir = "07_transformer";
    std::vector<const char*> argv = {"ch07"};
    for (const std::string& argument : arguments) argv.push_back(argument.c_str());
    Chapter07Settings chapter07;
    CommandLine cli("ch07", "chapter 07's translation model");
    ch01::add_seq2seq_flags(cli, chapter07.settings, chapter07_dir, ch07::chapter07_recipes, ch01::SizeFlags::transformer);
    ch07::add_transformer_flags(cli, chapter07.settings, chapter07.flags);
    try {
        cli.parse(static_cast<int>(argv.size()), argv.data());
        ch01::finish_seq2seq_flags(cli, chapter07.settings, chapter07_dir, ch07::chapter07_recipes);
        ch07::finish_transformer_flags(cli, chapter07.settings, chapter07.flags);
    } catch (const UsageError& error) {
        throw UsageError(error.what());   // one line: chapter 07's usage line is not this program's
    }
    return chapter07;
}

Chapter07Translation load_or_make_chapter07_translation(const Chapter07Settings& chapter07) {
    const ch01::AppSettings& settings = chapter07.settings;
    Chapter07Translation t{chapter07, ch07::load_translation_task(settings), nullptr, 0, 0};
    // As chapter 07's program does it: the sizes, the memory training needs (before a
    // bad_alloc hours later), then the model from the seed.
    const ch07::TranslationSizes sizes = ch07::translation_sizes(settings, chapter07.flags, t.task);
    if (settings.load.empty()) ch07::require_transformer_training_memory(sizes, static_cast<std::size_t>(settings.batch), t.task);
    Rng rng(settings.run.seed);
    t.model = std::make_unique<CachedTranslationModel<float>>(sizes, rng);
    if (!settings.load.empty()) ch01::load_model(*t.model, t.task, settings, settings.load);   // prints that it loaded
    return t;
}

void train_unless_loaded(Chapter07Translation& t, const std::string& heading) {
    const ch01::AppSettings& settings = t.chapter07.settings;
    const ch07::TranslationSizes& sizes = t.model->translation_sizes();
    const ch07::TransformerSizes& s = sizes.transformer;
    std::printf("%s\n   d_model %zu, %zu heads, feed-forward %zu, %zu + %zu layers, %s-norm: %zu parameters%s; its task:\n   %s\n",
                heading.c_str(), s.d_model, s.heads, s.feed_forward, s.encoder_layers, s.decoder_layers,
                t.chapter07.flags.norm.c_str(), t.model->parameter_count(), settings.run.quick ? " (--quick's sizes)" : "",
                t.task.corpus.description.c_str());
    if (!settings.load.empty()) {
        std::printf("   Loaded from %s (a folder that ./course run 07 --save wrote).\n", settings.load.c_str());
        return;
    }
    std::printf("   Trained here by chapter 07's own code, with its recipe%s (--load DIR decodes instead a model that\n"
                "   ./course run 07%s --save DIR wrote):\n",
                settings.run.quick ? " for --quick" : "", settings.run.quick ? " --quick" : "");
    const ch07::Training training =
        ch07::train_translation(*t.model, t.task, settings, ch01::train_config(settings, "   training"), "  ");
    t.train_seconds = training.log.seconds;
    t.train_cpu_seconds = training.cpu_seconds;
}

}  // namespace attn::ch08
