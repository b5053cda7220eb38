// The training of chapter 07's translation model (part 4 of its program) as one function, so
// that chapter 08, which decodes this model, trains the very same one by the same code when it
// has no checkpoint to load.
#pragma once
#include "chapters/01_encoder_decoder/app.hpp"
#include "chapters/01_encoder_decoder/training.hpp"
#include "chapters/07_transformer/translation_model.hpp"

#include <string>

namespace attn::ch07 {

struct Training {
    ch01::TrainLog log;
    double cpu_seconds = 0;   // the training's CPU time, validations included
};

// The task the settings name: the toy translation of chapters 01 and 02, --task dates, or --data FILE.
ch01::Task load_translation_task(const ch01::AppSettings& settings);

// Teacher forcing over all target positions at once, under the causal mask, with `config`
// (ch01::train_config of the settings). Prints "\n<part> Training for N steps (...)", every
// validation loss and, outside --quick, two validation sentences translated at each. `model`
// is chapter 07's, or another translation model trained at the same budget (chapter 08's with
// fewer key/value heads): training needs only chapter 01's interface.
Training train_translation(ch01::Seq2SeqModel<float>& model, const ch01::Task& task, const ch01::AppSettings& settings,
                           const ch01::TrainConfig& config, const std::string& part);

}  // namespace attn::ch07
