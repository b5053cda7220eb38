// Chapter 04, self-attention: one set of vectors is at once the queries, the keys and the
// values. The lesson's worked example computed by the layer, the permutation equivariance
// that follows from (4.1)-(4.3), and the masks that restrict self-attention to a local
// window or to a graph's edges, beside the weights of a random layer over a sentence; then
// what self-attention costs against a GRU and a convolution (measured against n), and what it
// buys: a counting task that needs the whole sequence, where the three are trained alike, and
// the same question asked of an image's patches, against 2-D convolutions.
#include "chapters/04_self_attention/counting.hpp"
#include "chapters/04_self_attention/expected_ranges.hpp"
#include "chapters/04_self_attention/figures.hpp"
#include "chapters/04_self_attention/graph_mask.hpp"
#include "chapters/04_self_attention/image_part.hpp"
#include "chapters/04_self_attention/layer_cost.hpp"
#include "chapters/04_self_attention/local_window_mask.hpp"
#include "chapters/04_self_attention/patchify.hpp"
#include "chapters/04_self_attention/receptive_field.hpp"
#include "chapters/04_self_attention/self_attention.hpp"
#include "chapters/04_self_attention/window_limit.hpp"
#include "chapters/04_self_attention/worked_example.hpp"
#include "common/autodiff/ops.hpp"
#include "common/cli.hpp"
#include "common/memory.hpp"
#include "common/nn/layers.hpp"
#include "common/progress.hpp"
#include "common/random.hpp"
#include "common/summary.hpp"

#include <cmath>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <map>
#include <unistd.h>

using namespace attn;
using namespace attn::ch04;

namespace {

const std::string chapter_dir = "04_self_attention";

// Training steps of the counting taggers (part 4); --steps replaces them.
int counting_steps(bool quick) { return quick ? 1000 : 6000; }

// Largest |a - b| over all entries.
double largest_difference(const Array<double>& a, const Array<double>& b) { return xt::amax(xt::abs(a - b))(); }

// ---- 1. The worked example of the lesson, through self_attention (4.1)-(4.3).
double show_worked_example() {
    const WorkedExample<double> example;
    const Var<double> Q = example.layer.W_q(example.X), K = example.layer.W_k(example.X);
    const Array<double> raw = bmm(Q, K, false, true).value();   // q_0.k_j, before scaling
    const double scale = std::sqrt(static_cast<double>(WorkedExample<double>::d_k));
    const Array<double> weights =
        self_attention(example.layer, example.X, full_lengths(1, 2)).weights.value();
    std::printf("\n1. The worked example: two words, d_k = %zu; word 0 is the query\n", WorkedExample<double>::d_k);
    std::printf("   %-30s %10s %10s\n", "", "word 0", "word 1");
    std::printf("   %-30s %10.1f %10.1f\n", "raw scores q_0 . k_j", raw(0, 0, 0), raw(0, 0, 1));
    std::printf("   %-30s %10.1f %10.1f\n", ("scaled by 1/sqrt(" + std::to_string(WorkedExample<double>::d_k) + ")").c_str(),
                raw(0, 0, 0) / scale, raw(0, 0, 1) / scale);
    std::printf("   %-30s %10.4f %10.4f\n", "softmax weights", weights(0, 0, 0), weights(0, 0, 1));
    std::printf("   (by hand: 1 / (1 + e^-2) = %.4f, 1 / (1 + e^2) = %.4f)\n", 1 / (1 + std::exp(-2.0)),
                1 / (1 + std::exp(2.0)));
    return weights(0, 0, 0);
}

// ---- 1b. Permutation equivariance: shuffle the rows of X, and the output rows and the
//          weights' rows and columns shuffle the same way.
struct Equivariance { double output_difference, weights_difference; };

Equivariance check_equivariance(Rng& rng) {
    const std::size_t n = 10, d_model = 16;
    const ch03::AttentionLayer<double> layer({d_model, d_model, d_model, 8, d_model}, rng);
    Array<double> X = rng.normal_matrix<double>(n, d_model);
    X.reshape({1, n, d_model});
    const std::vector<std::size_t> order = rng.permutation(n);
    const Array<double> X_shuffled = xt::view(X, xt::all(), xt::keep(order), xt::all());
    const ch03::Attention<double> plain = self_attention(layer, constant<double>(X), full_lengths(1, n));
    const ch03::Attention<double> shuffled = self_attention(layer, constant<double>(X_shuffled), full_lengths(1, n));
    const Array<double> output_then_shuffled = xt::view(plain.output.value(), xt::all(), xt::keep(order), xt::all());
    const Array<double> rows_shuffled = xt::view(plain.weights.value(), xt::all(), xt::keep(order), xt::all());
    const Array<double> weights_then_shuffled = xt::view(rows_shuffled, xt::all(), xt::all(), xt::keep(order));
    const Equivariance result{largest_difference(shuffled.output.value(), output_then_shuffled),
                              largest_difference(shuffled.weights.value(), weights_then_shuffled)};
    std::printf("\n   Permutation equivariance, a random layer (d_model %zu, d_k 8) on %zu random vectors, shuffled:\n",
                d_model, n);
    std::printf("   largest |O(PX) - P O(X)|       = %.2e\n", result.output_difference);
    std::printf("   largest |A(PX) - P A(X) P^T|   = %.2e   (zero up to rounding: no position is special)\n",
                result.weights_difference);
    return result;
}

// ---- 2. Restricted self-attention: a local window and a graph, as chapter 03 masks.    (4.4)-(4.5)
void draw_masks(Summary& summary, const std::filesystem::path& out) {
    const std::size_t n = 12, window = 2;
    summary.figure(plot::save_and_report(mask_heatmap(local_window_mask(1, n, window), position_labels(n),
                                                      "Local window w = 2 on n = 12: i attends to j if |i - j| <= 2"),
                                         out, "mask_local_window"));
    // A directed graph of 6 nodes; adjacency(i, j) is the edge j -> i (i listens to j).
    const std::vector<std::string> nodes = {"A", "B", "C", "D", "E", "F"};
    xt::xarray<bool> adjacency = xt::zeros<bool>({nodes.size(), nodes.size()});
    for (const auto& [from, to] : std::vector<std::pair<std::size_t, std::size_t>>{
             {0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 4}, {4, 3}, {5, 4}})
        adjacency(to, from) = true;
    std::printf("   the graph's edges: A->B, B->C, C->A, C->D, D->E, E->D, F->E (F hears from nobody)\n");
    summary.figure(plot::save_and_report(mask_heatmap(graph_mask(adjacency, 1), nodes,
                                                      "Graph mask: i attends to itself and to j if there is an edge j -> i"),
                                         out, "mask_graph"));
}

// The weights of a random (untrained) layer over a sentence of random word embeddings.
// The same word twice gets the same row and the same column: without positions, self-
// attention cannot tell the two apart (chapter 06 adds positions).
struct SentenceWeights { plot::Heatmap heatmap; double repeated_word_difference; };

SentenceWeights sentence_weights(Rng& rng) {
    const std::vector<std::string> words = {"the", "cat", "sat", "on", "the", "mat", "because", "it", "was", "tired"};
    std::map<std::string, std::int64_t> vocabulary;
    xt::xarray<std::int64_t> ids = xt::zeros<std::int64_t>({std::size_t{1}, words.size()});
    for (std::size_t i = 0; i < words.size(); ++i)
        ids(0, i) = vocabulary.emplace(words[i], static_cast<std::int64_t>(vocabulary.size())).first->second;
    const std::size_t d_model = 16;
    const Embedding<float> embed(vocabulary.size(), d_model, rng);
    ch03::AttentionLayer<float> layer({d_model, d_model, d_model, d_model, d_model}, rng);
    // Queries and keys with unit-variance entries (chapter 03's setting for sqrt(d)), so the
    // weights are neither uniform nor one-hot; a fresh Linear's would be nearly uniform.
    const double unit = 1.0 / std::sqrt(static_cast<double>(d_model));
    layer.W_q.weight.value() = rng.normal_matrix<float>(d_model, d_model, unit);
    layer.W_k.weight.value() = rng.normal_matrix<float>(d_model, d_model, unit);
    const Array<float> weights = self_attention(layer, embed(ids), full_lengths(1, words.size())).weights.value();
    // Words 0 and 4 are both "the": compare their rows, and their columns.
    const Array<double> w = xt::cast<double>(xt::view(weights, 0));
    const double rows = largest_difference(xt::view(w, 0, xt::all()), xt::view(w, 4, xt::all()));
    const double columns = largest_difference(xt::view(w, xt::all(), 0), xt::view(w, xt::all(), 4));
    return {weights_heatmap(weights, words, "Self-attention weights of a random layer over word embeddings (no positions)"),
            std::max(rows, columns)};
}

// An image as a sequence of patch vectors (4.6): the 4 x 4 image of 0..15 in 2 x 2 patches,
// then a 3-channel 32 x 32 image, and the round trip back to pixels.
bool show_patches(Rng& rng) {
    Array<double> counting = xt::arange<double>(16.0);
    counting.reshape({1, 1, 4, 4});
    const Array<double> patches = patchify(counting, 2);
    std::printf("   An image as patch vectors: the 4 x 4 image of 0..15 in 2 x 2 patches (left to right, top to bottom):\n");
    for (std::size_t k = 0; k < patches.shape(1); ++k) {
        std::printf("   patch %zu:", k);
        for (std::size_t f = 0; f < patches.shape(2); ++f) std::printf(" %2.0f", patches(0, k, f));
        std::printf("\n");
    }
    Array<double> image = rng.normal_matrix<double>(3 * 32, 32);
    image.reshape({1, 3, 32, 32});
    const Array<double> vectors = patchify(image, 4);
    const bool exact = unpatchify(vectors, 3, 32, 32, 4) == image;
    std::printf("   a (1, 3, 32, 32) image in 4 x 4 patches -> (%zu, %zu, %zu): %zu vectors of 3 * 4 * 4 numbers; back to "
                "pixels %s\n",
                vectors.shape(0), vectors.shape(1), vectors.shape(2), vectors.shape(1), exact ? "exactly" : "NOT exactly");
    return exact;
}

// ---- 3. What each output can see: the receptive field of stacked convolutions against one
//         self-attention layer, measured through autodiff (which inputs have a gradient).
void show_receptive_fields(Rng& rng, Summary& summary, const std::filesystem::path& out) {
    const std::size_t n = 32, d = 8, i = 16, max_layers = 4;
    std::printf("\n3. What each layer sees, then what it costs. First the inputs that can change output %zu of %zu:\n"
                "   backpropagate from output %zu alone (random weights, d = %zu) and keep the positions j whose\n"
                "   gradient d output_%zu / d x_j is not zero:\n",
                i, n, i, d, i);
    const std::vector<ReceptiveField> fields = receptive_fields(n, d, i, max_layers, rng);
    for (std::size_t m = 0; m < fields.size(); ++m) {
        const ReceptiveField& field = fields[m];
        const bool conv = m < max_layers;
        std::printf("   %-16s positions %zu..%zu (%zu = %s)\n", (field.model + ":").c_str(), field.first(), field.last(),
                    field.width(), conv ? "2L+1" : "n");
        // Exact facts, whatever the seed: 2L + 1 for L convolutions of kernel 3, all n for attention.
        const double width = conv ? 2.0 * static_cast<double>(m + 1) + 1 : static_cast<double>(n);
        summary.metric(conv ? "receptive_width_conv_" + std::to_string(m + 1) : "receptive_width_attention",
                       "positions that can change output " + std::to_string(i) + ", " + field.model,
                       static_cast<double>(field.width()), width, width);
    }
    summary.figure(plot::save_and_report(receptive_field_heatmap(fields, i), out, "receptive_field"));
}

// The GRU's work per step does not depend on n; its time per step does (see the lesson).
// The two ends of the fitted range, and the memory per step at the longest length.
void show_gru_per_step(const std::vector<CostPoint>& points, Summary& summary) {
    const LogLogFit fit = fit_log_log(points, "GRU");
    std::map<double, CostPoint> gru;   // by n
    for (const CostPoint& p : points)
        if (p.layer == "GRU") gru[static_cast<double>(p.n)] = p;
    const CostPoint &shortest = gru.at(fit.n_min), &longest = gru.at(fit.n_max);
    const auto us_per_step = [](const CostPoint& p) { return 1000.0 * p.ms / static_cast<double>(p.n); };
    const double kib_per_step = 1024.0 * longest.peak_mib / static_cast<double>(longest.n);
    std::printf("   the GRU per step: %.1f us at n = %zu, %.1f us at n = %zu; its peak memory, %.0f KiB per step\n",
                us_per_step(shortest), shortest.n, us_per_step(longest), longest.n, kib_per_step);
    summary.metric("gru_us_per_step_shortest", "GRU: microseconds per step, n = " + std::to_string(shortest.n),
                   us_per_step(shortest));
    summary.metric("gru_us_per_step_longest", "GRU: microseconds per step, n = " + std::to_string(longest.n),
                   us_per_step(longest));
    summary.metric("gru_kib_per_step", "GRU: peak memory per step (KiB), n = " + std::to_string(longest.n), kib_per_step);
}

// ---- 3. The cost: one forward + backward of each layer against n, at d = 64.
void measure_costs(bool quick, Summary& summary, const std::filesystem::path& out) {
    const std::size_t d = 64;
    std::vector<std::size_t> lengths{16, 64, 256, 512, 1024};
    if (!quick) {
        lengths.clear();
        for (std::size_t n = 16; n <= 2048; n *= 2) lengths.push_back(n);
    }
    const int repetitions = quick ? 3 : 7;   // as bench_sequence_layers
    std::printf("\n   What each layer costs: milliseconds and peak memory (MiB) of one forward + backward pass,\n"
                "   batch 1, d = %zu, float32, the fastest of %d timings per point (each in a process of its own):\n",
                d, repetitions);
    const Stopwatch clock;
    const std::vector<CostPoint> points = measure_layer_costs(lengths, d, repetitions);
    std::printf("   %6s", "n");
    for (const std::string& layer : layer_names()) std::printf(" %15s %7s", (layer + " ms").c_str(), "MiB");
    std::printf("\n");
    for (std::size_t i = 0; i < points.size(); i += layer_names().size()) {
        std::printf("   %6zu", points[i].n);
        for (std::size_t k = 0; k < layer_names().size(); ++k)
            std::printf(" %15.3f %7.2f", points[i + k].ms, points[i + k].peak_mib);
        std::printf("\n");
    }
    std::printf("\n   %-16s %16s %8s\n", "layer", "fitted slope", "theory");
    const std::vector<std::string> keys{"slope_self_attention", "slope_gru", "slope_convolution"};
    for (std::size_t k = 0; k < layer_names().size(); ++k) {
        const double slope = fit_log_log(points, layer_names()[k]).slope;
        std::printf("   %-16s %16.2f %8.0f\n", layer_names()[k].c_str(), slope, theoretical_slope(layer_names()[k]));
        summary.timing(keys[k], "log-log time slope, " + layer_names()[k] + " (theory " +
                                    std::to_string(static_cast<int>(theoretical_slope(layer_names()[k]))) + ")",
                       slope);
    }
    std::printf("   (slopes fitted over the upper half of n, where the leading term of the cost dominates)\n");
    if (const std::optional<double> n = attention_gru_crossover(points)) {
        std::printf("   self-attention costs more time than the GRU from n = %.0f on\n", *n);
        summary.metric("crossover_n", "n where self-attention overtakes the GRU (measured)", *n);
    } else {
        std::printf("   crossover with the GRU: beyond the measured range (self-attention stays cheaper up to n = %zu)\n",
                    points.back().n);
    }
    if (const std::optional<double> n = fitted_attention_gru_crossover(points))
        std::printf("   the fitted lines of self-attention and the GRU cross at n = %.0f\n", *n);
    show_gru_per_step(points, summary);
    const LayerCostFiles files = save_layer_costs(points, out);
    for (const plot::Files* figure : {&files.time, &files.memory})
        std::printf("   figure: %s\n", (figure->rendered ? figure->png : figure->script).c_str());
    std::printf("   table: %s (measured in %.1f s)\n", files.table.c_str(), clock.seconds());
}

// Accuracy of class scores (batch, n, classes) over the positions whose farthest repeat is
// exactly `distance` away.
double accuracy_at_distance(const Array<double>& scores, const CountingBatch& test, std::size_t distance) {
    double right = 0, count = 0;
    for (std::size_t b = 0; b < scores.shape(0); ++b)
        for (std::size_t i = 0; i < scores.shape(1); ++i) {
            if (test.farthest(b, i) != static_cast<std::int64_t>(distance)) continue;
            const auto row = xt::view(scores, b, i, xt::all());
            right += static_cast<std::int64_t>(std::max_element(row.begin(), row.end()) - row.begin()) == test.classes(b, i);
            count += 1;
        }
    return right / count;
}

// Why the convolutions miss within their reach: the best any model can do that sees `reach`
// positions on each side, worked out from the task (window_limit.hpp), against the trained
// convolutions, by the exact distance of the farthest repeat and in cross-entropy. Returns
// the best with the convolutions' reach, scored like a tagger (for the figure).
TaggerScore show_window_limit(const CountingTask& task, std::size_t reach, const Tagger& convolutions,
                              double conv_loss, const CountingBatch& test, Summary& summary) {
    std::printf("\n   Within their reach, against the best any model can do that sees r positions on each side (the\n"
                "   labels' probabilities given its window, worked out from the task, not trained), by the exact\n"
                "   distance to the farthest repeat:\n");
    std::printf("   %-22s", "");
    for (std::size_t d = 1; d <= reach; ++d) std::printf(" %10s %zu", "farthest", d);
    std::printf(" %14s\n", "cross-entropy");
    const auto row = [&](const std::string& name, const Array<double>& scores, double loss) {
        std::vector<double> by_distance;
        std::printf("   %-22s", name.c_str());
        for (std::size_t d = 1; d <= reach; ++d) {
            by_distance.push_back(accuracy_at_distance(scores, test, d));
            std::printf(" %12.3f", by_distance.back());
        }
        std::printf(" %14.3f\n", loss);
        return by_distance;
    };
    Array<double> best;
    std::vector<double> best_losses(reach + 1);   // by reach
    for (std::size_t r = reach; r + 1 > 0; --r) {   // reach, reach - 1, ..., 0
        const Array<double> probabilities = window_limited_probabilities(task, r, test.tokens);
        best_losses[r] = mean_cross_entropy(probabilities, test.classes);
        row("best with reach " + std::to_string(r), probabilities, best_losses[r]);
        if (r == reach) best = probabilities;
    }
    const std::vector<double> conv = row(convolutions.name(), xt::cast<double>(convolutions(test.tokens).value()), conv_loss);
    // What the lesson quotes: the convolutions' row, and the losses of the best with their
    // reach and with one position less.
    for (std::size_t d = 1; d <= reach; ++d)
        summary.metric("conv_accuracy_farthest_" + std::to_string(d),
                       convolutions.name() + ": accuracy, farthest repeat exactly " + std::to_string(d), conv[d - 1]);
    summary.metric("conv_loss", convolutions.name() + ": loss over the last tenth of training", conv_loss);
    for (const std::size_t r : {reach, reach - 1})
        summary.metric("reach" + std::to_string(r) + "_loss", "best with reach " + std::to_string(r) + ": cross-entropy",
                       best_losses[r]);
    std::printf("   (the convolutions' cross-entropy is their training loss over the last tenth)\n");
    return score_predictions(best, test.classes, test.farthest, bucket_names(task.length).size(), bucket_of);
}

// ---- 4. What it buys: the counting task, three taggers with the same budget and batches.
void compare_on_counting(const RunSettings& run, const TaggerSizes& sizes, const Ranges& ranges, Summary& summary,
                         const std::filesystem::path& out) {
    const CountingTask task;
    Recipe recipe;
    recipe.steps = run.steps;
    Rng init(run.seed);
    std::vector<std::unique_ptr<Tagger>> taggers = make_taggers(task, sizes, init);
    Rng test_rng(run.seed + 1000);
    const CountingBatch test = make_counting_batch(task, 1000, test_rng);
    const std::vector<std::string> buckets = bucket_names(task.length);
    std::printf("\n4. Counting: %zu tokens drawn from %zu, each position labelled with how many times its token\n"
                "   occurs in the sequence (1 to %zu, more is %zu). Three taggers, each an embedding (d %zu), one way\n"
                "   of mixing positions and the same head (Linear %zu, ReLU, Linear %zu); Adam lr %g, clip %g,\n"
                "   %d steps of %zu sequences, the same batches for all three; tested on %zu sequences:\n",
                task.length, task.vocab, task.classes, task.classes, sizes.d_model, sizes.hidden, task.classes, recipe.lr,
                recipe.clip, recipe.steps, recipe.batch, test.tokens.shape(0));
    std::printf("   the mixing: self-attention d_k = d_v = %zu with x + attention(x) (no positions), a GRU of %zu per\n"
                "   direction, %zu convolutions of %zu channels (reach: %zu positions on each side)\n",
                sizes.d_model, sizes.gru_state, sizes.conv_layers, sizes.conv_channels, sizes.conv_layers);
    std::vector<std::vector<double>> by_bucket;
    std::vector<std::string> names;
    std::vector<TaggerScore> scores;
    std::vector<double> losses;
    for (const auto& tagger : taggers) {
        const Stopwatch clock;
        const double loss = train_tagger(*tagger, task, recipe, run.seed + 1);
        losses.push_back(loss);
        scores.push_back(score_tagger(*tagger, task, test));
        names.push_back(tagger->name());
        by_bucket.push_back(scores.back().by_bucket);
        std::printf("   %-22s %6zu parameters, trained in %5.1f s, loss over the last tenth %.3f\n", tagger->name().c_str(),
                    tagger->parameter_count(), clock.seconds(), loss);
    }
    std::printf("\n   test accuracy by the distance from each position to the farthest other occurrence of its token\n");
    std::printf("   %-22s %8s", "", "overall");
    for (const std::string& bucket : buckets) std::printf(" %11s", bucket.c_str());
    std::printf("\n");
    for (std::size_t m = 0; m < taggers.size(); ++m) {
        std::printf("   %-22s %8.3f", names[m].c_str(), scores[m].accuracy);
        for (const double a : scores[m].by_bucket) std::printf(" %11.3f", a);
        std::printf("\n");
    }
    std::printf("   %-22s %8zu", "positions", test.tokens.size());
    for (const std::size_t count : scores[0].positions) std::printf(" %11zu", count);
    std::printf("\n   (the convolutions reach %zu positions on each side: buckets beyond are out of their sight)\n",
                sizes.conv_layers);

    const std::vector<std::string> keys{"attention", "gru", "conv"};
    const std::size_t beyond_reach = bucket_of(sizes.conv_layers + 1);   // the first bucket past the convolutions' reach
    for (std::size_t m = 0; m < taggers.size(); ++m) {
        add_metric(summary, ranges, keys[m] + "_accuracy", names[m] + ": test accuracy", scores[m].accuracy);
        add_metric(summary, ranges, keys[m] + "_accuracy_far", names[m] + ": accuracy, farthest occurrence > " +
                                                                 std::to_string(sizes.conv_layers),
                   accuracy_from_bucket(scores[m], beyond_reach));
        summary.setting(keys[m] + "_parameters", static_cast<double>(taggers[m]->parameter_count()));
    }
    summary.metric("conv_accuracy_near", names.back() + ": accuracy, farthest occurrence 1-3", scores.back().by_bucket.at(1));
    const TaggerScore best_within_reach =
        show_window_limit(task, sizes.conv_layers, *taggers.back(), losses.back(), test, summary);
    plot::LinePlot accuracy_plot = accuracy_by_distance_plot(
        names, by_bucket, buckets, "Counting tokens: accuracy by distance to the farthest repeat");
    plot::Series limit{"best possible with reach " + std::to_string(sizes.conv_layers), {}, {}};
    for (std::size_t k = 0; k < buckets.size(); ++k) {
        limit.x.push_back(static_cast<double>(k));
        limit.y.push_back(best_within_reach.by_bucket[k]);
    }
    limit.reference = true;
    limit.points = true;   // one bound per bucket: rings, not a line that would suggest values between buckets
    accuracy_plot.series.push_back(limit);
    summary.figure(plot::save_and_report(accuracy_plot, out, "counting_accuracy_by_distance"));

    // The trained self-attention layer on the first test sequence, its tokens as labels.
    const xt::xarray<std::int64_t> first = xt::view(test.tokens, xt::range(0, 1), xt::all());
    std::vector<std::string> labels;
    for (const std::int64_t token : first) labels.push_back(std::to_string(token));
    const auto& attention = dynamic_cast<const AttentionTagger&>(*taggers[0]);
    const plot::Heatmap map = weights_heatmap(attention.weights(first), labels,
                                              "Trained self-attention on a test sequence (rows: queries, columns: keys)");
    summary.figure(plot::save_and_report(map, out, "counting_attention_weights"));
    summary.attention(map, {"counting: first test sequence", "self"});
    std::cout << "\n" << plot::preview(map, ::isatty(STDOUT_FILENO) == 1, 80);
}

int run(int argc, char** argv) {
    RunSettings run;
    CommandLine cli(argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "ch04",
                    "self-attention: the worked example, permutation equivariance, local and graph masks, image patches, "
                    "the cost against n, counting tokens with self-attention, a GRU and convolutions, and counting "
                    "colours in an image");
    bool no_cost = false;
    TaggerSizes sizes;
    int conv_channels = static_cast<int>(sizes.conv_channels);
    add_standard_flags(cli, run, chapter_dir);
    cli.flag("no-cost", &no_cost, "skip the cost measurements of part 3");
    cli.option("conv-channels", &conv_channels,
               "channels of each convolution in part 4 (more than the matched budget; printed without ranges)", 1, 1024);
    if (!parse_chapter_flags(cli, run, argc, argv, chapter_dir, expected_ranges(), counting_steps(false), counting_steps(true))) return 0;
    require_memory(run_memory_bytes(static_cast<std::size_t>(conv_channels)),
                   "the run with --conv-channels " + std::to_string(conv_channels), "lower --conv-channels");
    const std::filesystem::path out = run.out;
    Summary summary(chapter_dir, run);
    const Stopwatch clock;
    std::cout << "Chapter 04: self-attention (" << code_name(run) << ", seed " << run.seed << ")\n";
    Rng rng(run.seed);

    // ---- 1. Self-attention in matrix form: the worked example, then equivariance.  (4.1)-(4.3)
    const double worked_weight = show_worked_example();
    const Equivariance equivariance = check_equivariance(rng);

    // ---- 2. Masks for restricted self-attention, the weights over a sentence, and an image
    //         as a sequence of patch vectors.                                       (4.4)-(4.6)
    std::cout << "\n2. Restricted self-attention (a local window, a graph) as masks, an image as patch vectors, and\n"
              << "   the weights over a sentence; figures in " << out.string() << ":\n";
    draw_masks(summary, out);
    const bool round_trip = show_patches(rng);
    const SentenceWeights sentence = sentence_weights(rng);
    summary.figure(plot::save_and_report(sentence.heatmap, out, "sentence_weights"));
    summary.attention(sentence.heatmap, {"a sentence, random layer", "self"});
    std::printf("   the two \"the\" get the same row and column of weights: largest difference %.2e\n",
                sentence.repeated_word_difference);

    // Exact facts rather than measurements: a correct self_attention lands inside whatever the seed.
    summary.metric("worked_example_weight", "worked example: weight of word 0 (1 / (1 + e^-2))", worked_weight,
                   0.88079, 0.88080);
    summary.metric("equivariance_output_difference", "largest |O(PX) - P O(X)|", equivariance.output_difference, 0.0,
                   1e-12);
    summary.metric("equivariance_weights_difference", "largest |A(PX) - P A(X) P^T|", equivariance.weights_difference,
                   0.0, 1e-12);
    summary.metric("repeated_word_difference", "same word twice: largest difference of their weights",
                   sentence.repeated_word_difference, 0.0, 1e-6);
    summary.metric("patch_round_trip", "unpatchify(patchify(x)) == x (1 = yes)", round_trip ? 1.0 : 0.0, 1.0, 1.0);

    // ---- 3.-4. The cost against n, and a task that needs the whole sequence. Ranges hold at
    //            the chapter's own settings only.
    const std::string mode = run.quick ? " --quick" : "";
    sizes.conv_channels = static_cast<std::size_t>(conv_channels);
    const bool own_settings = cli.given("steps") || cli.given("conv-channels");
    const Ranges counting_ranges = own_settings ? Ranges{} : rows_for(expected_ranges(), "counting" + mode);
    show_receptive_fields(rng, summary, out);
    if (!no_cost) measure_costs(run.quick, summary, out);
    compare_on_counting(run, sizes, counting_ranges, summary, out);
    // ---- 5. The same need in two dimensions: an image as a set of patches.
    compare_on_images(run, cli.given("steps") ? run.steps : image_steps(run.quick),
                      cli.given("steps") ? Ranges{} : rows_for(expected_ranges(), "image" + mode), summary, out);

    summary.finish(out, clock.seconds());   // prints where summary.json and report.html are
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return run_program("ch04", [&] { return run(argc, argv); });
}
