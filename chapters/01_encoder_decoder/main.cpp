// Chapter 01, the RNN encoder-decoder: a GRU reads the source, its last state becomes the
// context vector, and a GRU decoder writes the target from it. We train it, then measure how
// its quality falls as sentences grow longer than one vector can hold.
#include "chapters/01_encoder_decoder/app.hpp"
#include "chapters/01_encoder_decoder/expected_ranges.hpp"
#include "chapters/01_encoder_decoder/figures.hpp"
#include "chapters/01_encoder_decoder/memory_estimate.hpp"
#include "chapters/01_encoder_decoder/run_summary.hpp"
#include "common/autodiff/ops.hpp"
#include "common/data/tokenize.hpp"
#include "common/progress.hpp"

#include <iostream>
#include <unistd.h>

using namespace attn;
using namespace attn::ch01;

namespace {

const std::string chapter_dir = "01_encoder_decoder";

// The encoder's states for one sentence, (seq_len, H), for the heatmap.
Array<float> states_for(ContextSeq2Seq<float>& model, const Task& task, const data::Pair& pair) {
    const NoGradGuard no_grad;
    const data::Batch batch = data::make_batch({pair}, {0}, task.source_vocab, task.target_vocab);
    const EncoderOutput<float> encoded = model.encoder(batch.source, batch.source_lens);
    Array<float> states = xt::view(encoded.states.value(), 0, xt::all(), xt::all());
    return states;
}

// A test sentence of about `length` tokens, to show the encoder's states.
const data::Pair& sentence_of_length(const std::vector<data::Pair>& pairs, std::size_t length) {
    std::size_t best = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i)
        if (std::abs(static_cast<long>(pairs[i].source.size()) - static_cast<long>(length)) <
            std::abs(static_cast<long>(pairs[best].source.size()) - static_cast<long>(length)))
            best = i;
    return pairs[best];
}

int run(int argc, char** argv) {
    AppSettings settings;
    CommandLine cli(argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "ch01",
                    "an RNN encoder-decoder and its context-vector bottleneck");
    add_seq2seq_flags(cli, settings, chapter_dir, chapter01_recipes);
    if (!cli.parse(argc, argv)) return 0;
    finish_seq2seq_flags(cli, settings, chapter_dir, chapter01_recipes);
    if (settings.print_ranges) {
        std::cout << ranges_markdown(expected_ranges());
        return 0;
    }
    const Stopwatch clock;
    std::cout << "Chapter 01: the RNN encoder-decoder (" << code_name(settings.run) << ", seed " << settings.run.seed << ")\n";

    // ---- 1. The task: pairs of token sequences, vocabularies, length buckets.
    const Task task = load_task(settings.task, settings.data, settings.run.seed, settings.run.quick, settings.swap,
                                settings.level == "char" ? data::TokenLevel::character : data::TokenLevel::word);
    std::cout << "\n1. " << task.corpus.description << "\n   vocabularies: " << task.source_vocab.size()
              << " source and " << task.target_vocab.size() << " target tokens\n";

    // ---- 2. The model: embedding + GRU encoder (1.1)-(1.6); decoder fed [embedding; c] (1.7).
    Rng rng(settings.run.seed);
    require_gru_training_memory(settings, task);   // refused here, with the estimate, rather than a bad_alloc later
    ContextSeq2Seq<float> model(model_sizes(settings, task), rng);
    std::cout << "\n2. Encoder-decoder with a " << settings.hidden << "-unit context vector: "
              << model.parameter_count() << " parameters\n";
    TrainLog log;
    double train_cpu_seconds = 0;
    if (!settings.load.empty()) {
        load_model(model, task, settings, settings.load);
    } else {
        // ---- 3. Teacher forcing: minimise the cross-entropy of each next target token (1.8).
        std::cout << "\n3. Training for " << settings.run.steps << " steps (batch " << settings.batch << ", Adam, lr "
                  << settings.lr << learning_rate_decay(settings) << ")\n";
        const std::vector<data::Pair> peek(task.corpus.validation.begin(),
                                           task.corpus.validation.begin() + std::min<std::ptrdiff_t>(2, task.corpus.validation.size()));
        const CpuStopwatch cpu;
        log = train(model, task, train_config(settings, "   training"), [&](int step, double valid_loss) {
            std::cout << "   step " << step << ": validation loss " << valid_loss << "\n";
            show_examples(task, peek, translate(model, task, peek), peek.size());
        });
        train_cpu_seconds = cpu.seconds();
    }
    // Saved as soon as training ends: nothing after it (a long sentence, a full disk for the figures) can lose it.
    if (!settings.save.empty()) save_model(model, task, settings, settings.save);

    // ---- 4. Greedy decoding (1.9) of the test set, scored by source length.
    std::cout << "\n4. Greedy decoding of " << task.corpus.test.size() << " test sentences:\n";
    Summary summary("01_encoder_decoder", settings.run);
    const Evaluation test = evaluate(model, task, task.corpus.test);
    print_buckets(test);
    show_examples(task, task.corpus.test, test.hypotheses, 3);

    // ---- 5. Figures.
    const std::filesystem::path out = settings.run.out;
    std::cout << "\n5. Figures in " << out.string() << ":\n";
    if (!log.steps.empty())
        summary.figure(plot::save_and_report(loss_curves(log, "Chapter 01: the encoder-decoder learning " + task.name), out,
                                             "loss_curves"));
    summary.figure(plot::save_and_report(scores_by_length(std::vector<LabelledEvaluation>{{"01 context vector", &test}},
                                                          "Chapter 01: scores by source length (test set)", "source length (tokens)"),
                                         out, "scores_by_length"));
    const data::Pair& example = sentence_of_length(task.corpus.test, 12);
    const plot::Heatmap states = encoder_states(states_for(model, task, example), example.source, 24);
    summary.figure(plot::save_and_report(states, out, "encoder_states"));
    std::cout << "\n" << plot::preview(states, ::isatty(STDOUT_FILENO) == 1);

    // ---- 6. Your own sentence (the model was saved when training ended).
    if (!settings.translate.empty()) show_translation(model, task, settings.translate, "6.");

    summary.setting("steps_per_second", log.steps_per_second);
    if (!log.valid_loss.empty()) summary.setting("final_valid_loss", log.valid_loss.back());
    write_run(summary, {decisive_settings(settings, task), log.steps.empty() ? 0 : settings.run.steps, log.seconds, test, train_cpu_seconds},
              ranges_for(expected_ranges(), settings, task));
    summary.finish(out, clock.seconds());   // prints where summary.json and report.html are
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return run_program("ch01", [&] { return run(argc, argv); });
}
