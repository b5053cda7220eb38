// The figures of chapters 01 and 02 (see figures.hpp).
#include "chapters/01_encoder_decoder/figures.hpp"

#include "common/data/tokenize.hpp"


namespace attn::ch01 {

plot::LinePlot loss_curves(const TrainLog& log, const std::string& title) {
    plot::LinePlot figure;
    figure.title = title;
    figure.xlabel = "training step";
    figure.ylabel = "cross-entropy per token (nats)";
    figure.log_y = true;
    figure.legend = "top right";   // the curves fall from the top left
    // Every step's loss is noisy; a running mean over 20 steps shows the trend.
    std::vector<double> smooth;
    double window = 0;
    for (std::size_t i = 0; i < log.train_loss.size(); ++i) {
        window += log.train_loss[i] - (i >= 20 ? log.train_loss[i - 20] : 0.0);
        smooth.push_back(window / static_cast<double>(std::min<std::size_t>(i + 1, 20)));
    }
    figure.series.push_back({"training (mean of 20 steps)", log.steps, smooth, false});
    figure.series.push_back({"validation", log.eval_steps, log.valid_loss, false});
    return figure;
}

plot::LinePlot scores_by_length(const std::vector<LabelledEvaluation>& runs, const std::string& title,
                                const std::string& xlabel) {
    plot::LinePlot figure;
    figure.title = title;
    figure.xlabel = xlabel;
    figure.ylabel = "score on the test set";
    figure.y_min = 0.0;
    figure.y_max = 1.05;
    figure.legend = "center right";   // the curves live near 1 and near 0
    for (const LabelledEvaluation& run : runs) {
        plot::Series bleu{run.label + ": BLEU", {}, {}, false, true, false};
        plot::Series accuracy{run.label + ": token accuracy", {}, {}, false, true, true};
        for (std::size_t k = 0; k < run.evaluation->buckets.size(); ++k) {
            const BucketScores& bucket = run.evaluation->buckets[k];
            if (figure.x_tick_labels.size() <= k) figure.x_tick_labels.push_back(bucket.label);
            if (bucket.count == 0) continue;
            bleu.x.push_back(static_cast<double>(k));
            bleu.y.push_back(bucket.scores.bleu);
            accuracy.x.push_back(static_cast<double>(k));
            accuracy.y.push_back(bucket.scores.token_accuracy);
        }
        figure.series.push_back(bleu);
        figure.series.push_back(accuracy);
    }
    return figure;
}

plot::Heatmap encoder_states(const Array<float>& states, const std::vector<std::string>& tokens, std::size_t units) {
    const std::size_t steps = states.shape(0), shown = std::min(units, states.shape(1));
    plot::Heatmap figure;
    figure.title = "Encoder states while reading one sentence (outlined: the context vector)";
    figure.xlabel = "source token (the state after reading it)";
    figure.ylabel = "hidden unit";
    figure.values = xt::zeros<double>({shown, steps});   // units down, time across
    for (std::size_t u = 0; u < shown; ++u) {
        for (std::size_t t = 0; t < steps; ++t) figure.values(u, t) = states(t, u);
        figure.y_tick_labels.push_back(std::to_string(u));
    }
    for (const std::string& token : tokens) figure.x_tick_labels.push_back(data::display_token(token));
    figure.colorbar_label = "activation";
    figure.z_min = -1.0;
    figure.z_max = 1.0;
    figure.highlight_columns = {steps - 1};
    return figure;
}

}  // namespace attn::ch01
