// Training with teacher forcing (see training.hpp).
#include "chapters/01_encoder_decoder/training.hpp"

#include "common/autodiff/ops.hpp"
#include "common/nn/optim.hpp"
#include "common/progress.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace attn::ch01 {

double learning_rate_at(const TrainConfig& config, int step) {
    if (config.warmup > 0) {
        const double s = std::max(step, 1), warmup = config.warmup;
        return config.lr * std::min(config.warmup_ramp ? s / warmup : 1.0, std::sqrt(warmup / s));
    }
    const double end = config.lr * config.final_lr_fraction;
    const double progress = config.steps > 1 ? static_cast<double>(step - 1) / (config.steps - 1) : 1.0;
    return end + (config.lr - end) * (1 + std::cos(M_PI * progress)) / 2;
}

template <class T>
double mean_loss(Seq2SeqModel<T>& model, const Task& task, const std::vector<data::Pair>& pairs) {
    const NoGradGuard no_grad;
    model.eval();
    double total = 0, tokens = 0;
    for (const std::vector<std::size_t>& indices : data::ordered_batches(pairs.size(), 256)) {
        const data::Batch batch = data::make_batch(pairs, indices, task.source_vocab, task.target_vocab);
        const Var<T> loss = cross_entropy(model.forward(batch), batch.target_out, data::pad_id, 0.0, Reduction::sum);
        total += loss.item();
        tokens += static_cast<double>(xt::sum(batch.target_lens)()) + static_cast<double>(indices.size());   // + <eos>
    }
    model.train();
    return total / std::max(tokens, 1.0);
}

template <class T>
TrainLog train(Seq2SeqModel<T>& model, const Task& task, const TrainConfig& config, const OnEvaluation& on_eval) {
    Rng rng(config.seed);
    Adam<T> adam(model.parameters(), config.lr);
    const std::vector<data::Pair>& pairs = task.corpus.train;
    TrainLog log;
    ProgressBar bar(config.label, static_cast<std::size_t>(config.steps));
    std::vector<std::vector<std::size_t>> epoch;
    std::size_t next_batch = 0;
    model.train();
    for (int step = 1; step <= config.steps; ++step) {
        if (next_batch == epoch.size()) {   // a new pass; batches of similar lengths waste less on padding
            epoch = data::length_grouped_batches(pairs, config.batch_size, rng);
            next_batch = 0;
        }
        const data::Batch batch = data::make_batch(pairs, epoch[next_batch++], task.source_vocab, task.target_vocab);
        const Var<T> loss = cross_entropy(model.forward(batch), batch.target_out, data::pad_id, config.label_smoothing);   // (1.8)
        if (!std::isfinite(loss.item()))
            throw std::runtime_error("the training loss became " + std::to_string(loss.item()) + " at step " +
                                     std::to_string(step) + "; try a smaller --lr");
        adam.zero_grad();
        backward(loss);
        clip_grad_norm(model.parameters(), config.clip);
        adam.set_lr(learning_rate_at(config, step));
        adam.step();
        log.steps.push_back(step);
        log.train_loss.push_back(loss.item());
        bar.update(static_cast<std::size_t>(step), loss.item());
        if (step % config.eval_every == 0 || step == config.steps) {
            log.eval_steps.push_back(step);
            log.valid_loss.push_back(mean_loss(model, task, task.corpus.validation));
            if (on_eval) on_eval(step, log.valid_loss.back());
        }
    }
    bar.finish();
    log.seconds = bar.seconds();
    log.steps_per_second = config.steps / std::max(log.seconds, 1e-9);
    return log;
}

template TrainLog train(Seq2SeqModel<float>&, const Task&, const TrainConfig&, const OnEvaluation&);
template TrainLog train(Seq2SeqModel<double>&, const Task&, const TrainConfig&, const OnEvaluation&);
template double mean_loss(Seq2SeqModel<float>&, const Task&, const std::vector<data::Pair>&);
template double mean_loss(Seq2SeqModel<double>&, const Task&, const std::vector<data::Pair>&);

}  // namespace attn::ch01
