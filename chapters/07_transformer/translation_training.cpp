// Chapter 07's training of its translation model (see translation_training.hpp).
#include "chapters/07_transformer/translation_training.hpp"

#include "chapters/01_encoder_decoder/evaluation.hpp"
#include "chapters/01_encoder_decoder/run_summary.hpp"
#include "common/data/tokenize.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <vector>

namespace attn::ch07 {

ch01::Task load_translation_task(const ch01::AppSettings& settings) {
    return ch01::load_task(settings.task, settings.data, settings.run.seed, settings.run.quick, settings.swap,
                           settings.level == "char" ? data::TokenLevel::character : data::TokenLevel::word);
}

Training train_translation(ch01::Seq2SeqModel<float>& model, const ch01::Task& task, const ch01::AppSettings& settings,
                           const ch01::TrainConfig& config, const std::string& part) {
    std::cout << "\n" << part << " Training for " << settings.run.steps << " steps (batch " << settings.batch
              << ", Adam, peak lr " << settings.lr << ch01::learning_rate_decay(settings) << ", label smoothing "
              << settings.label_smoothing << "; the validation loss is the plain cross-entropy)\n";
    const std::vector<data::Pair> peek(task.corpus.validation.begin(),
                                       task.corpus.validation.begin() + std::min<std::ptrdiff_t>(2, task.corpus.validation.size()));
    Training training;
    const ch01::CpuStopwatch cpu;   // the machine may be shared: CPU time says what a quiet one would take
    training.log = ch01::train(model, task, config, [&](int step, double valid_loss) {
        std::cout << "   step " << step << ": validation loss " << valid_loss << "\n";
        if (!settings.run.quick)   // decoding an untrained model runs to the longest output: seconds --quick lacks
            ch01::show_examples(task, peek, ch01::translate(model, task, peek), peek.size());
    });
    training.cpu_seconds = cpu.seconds();
    std::printf("   %.1f steps per second (%.0f s); %.0f s of CPU time, validations included\n", training.log.steps_per_second,
                training.log.seconds, training.cpu_seconds);
    return training;
}

}  // namespace attn::ch07
