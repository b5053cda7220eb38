// The figures of chapters 01 and 02: loss curves, scores by source length (one or several
// models on one chart), and a heatmap of the encoder's states for one sentence.
#pragma once
#include "chapters/01_encoder_decoder/evaluation.hpp"
#include "chapters/01_encoder_decoder/training.hpp"
#include "common/plot.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace attn::ch01 {

plot::LinePlot loss_curves(const TrainLog& log, const std::string& title);

struct LabelledEvaluation {
    std::string label;   // "01 (context vector)"
    const Evaluation* evaluation;
};
// BLEU and token accuracy for each source-length bucket, one pair of lines per model.
plot::LinePlot scores_by_length(const std::vector<LabelledEvaluation>& runs, const std::string& title,
                                const std::string& xlabel);

// states: (seq_len, H) for one sentence; shows the first `units` hidden units over the source
// tokens, with the last column (the context vector) outlined.
plot::Heatmap encoder_states(const Array<float>& states, const std::vector<std::string>& tokens, std::size_t units);

}  // namespace attn::ch01
