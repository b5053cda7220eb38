// Training any Seq2SeqModel with teacher forcing: shuffled batches, cross-entropy that
// ignores padding, gradient clipping and Adam; the validation loss every so often.
#pragma once
#include "chapters/01_encoder_decoder/seq2seq.hpp"
#include "chapters/01_encoder_decoder/task.hpp"

#include <functional>
#include <vector>

namespace attn::ch01 {

struct TrainConfig {
    int steps = 1000;
    std::size_t batch_size = 64;
    double lr = 3e-3;            // the peak learning rate
    double final_lr_fraction = 1.0;   // the rate decays to lr * this by the last step (1: constant)
    int warmup = 0;              // > 0: the Transformer's warm-up schedule instead of the cosine
    bool warmup_ramp = true;     // false: the same schedule at its peak from step 1 (chapter 07's ablation)
    double label_smoothing = 0;  // the training loss's label smoothing (the validation loss has none)
    double clip = 1.0;           // global gradient norm
    int eval_every = 100;        // steps between validation losses
    std::uint64_t seed = 42;
    std::string label = "training";   // shown on the progress bar
};

struct TrainLog {
    std::vector<double> steps, train_loss;       // every step
    std::vector<double> eval_steps, valid_loss;  // every eval_every steps
    double seconds = 0;
    double steps_per_second = 0;
};

// The learning rate at `step` (1 ... steps). By default a cosine from lr down to
// lr * final_lr_fraction: large steps early cover ground fast; small steps late let the loss
// settle on its plateau.
//   lr(step) = lr_end + (lr - lr_end) * (1 + cos(pi * (step - 1) / (steps - 1))) / 2
// With warmup > 0, the Transformer's schedule instead: a linear rise to lr over the first
// `warmup` steps (a freshly initialised post-norm Transformer diverges under large early
// steps), then a decay as the inverse square root of the step (final_lr_fraction unused):
//   lr(step) = lr * min(step / warmup, sqrt(warmup / step))
// and with warmup_ramp false, the same without its ramp: lr * min(1, sqrt(warmup / step)).
double learning_rate_at(const TrainConfig& config, int step);

// Called after each validation with the step and the validation loss (e.g. to print a few
// translations).
using OnEvaluation = std::function<void(int step, double valid_loss)>;

// L = cross_entropy(model.forward(batch), batch.target_out), padding ignored (1.8), with
// config.label_smoothing of the target's probability spread over the whole vocabulary.
// Throws std::runtime_error if the loss stops being a finite number.
template <class T>
TrainLog train(Seq2SeqModel<T>& model, const Task& task, const TrainConfig& config, const OnEvaluation& on_eval = {});

// The mean teacher-forced loss over `pairs`, without recording a tape.
template <class T>
double mean_loss(Seq2SeqModel<T>& model, const Task& task, const std::vector<data::Pair>& pairs);

}  // namespace attn::ch01
