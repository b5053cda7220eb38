// Part 5 of chapter 04 (see image_part.hpp).
#include "chapters/04_self_attention/image_part.hpp"

#include "chapters/04_self_attention/figures.hpp"
#include "chapters/04_self_attention/image_comparison.hpp"
#include "common/plot.hpp"
#include "common/progress.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace attn::ch04 {

int image_steps(bool quick) { return quick ? 300 : 2000; }

namespace {

// The share of the coloured patches in each class, in percent.
std::vector<double> class_shares(const ImageTask& task, const ImageBatch& batch) {
    std::vector<double> shares(task.classes, 0.0);
    double labelled = 0;
    for (const std::int64_t c : batch.classes)
        if (c != background) {
            shares[static_cast<std::size_t>(c)] += 100.0;
            ++labelled;
        }
    for (double& share : shares) share /= labelled;
    return shares;
}

// The name of palette colour k: the corner of the RGB cube it sits at (image_palette).
std::string colour_name(std::int64_t k) {
    static const char* const names[] = {"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"};
    return k >= 0 && k < 8 ? names[k] : "colour " + std::to_string(k);
}

// A channel value in [0, 1] as one byte of a 0xRRGGBB colour.
std::uint32_t colour_byte(double value) { return static_cast<std::uint32_t>(std::lround(std::clamp(value, 0.0, 1.0) * 255)); }

// Image 0 of `batch` as it looks (without the pixel noise): each of its 8 x 8 patches in its
// own colour, the key naming the colours.
plot::Heatmap colour_map(const ImageTask& task, const ImageBatch& batch) {
    plot::Heatmap map;
    map.title = "A test image: " + std::to_string(task.coloured) + " coloured patches on a grey background (" +
                std::to_string(task.grid) + " x " + std::to_string(task.grid) + " patches)";
    map.xlabel = "patch column";
    map.ylabel = "patch row";
    map.values = xt::cast<double>(xt::reshape_view(xt::view(batch.colours, 0), {task.grid, task.grid})) + 1.0;
    map.x_tick_labels = position_labels(task.grid);
    map.y_tick_labels = position_labels(task.grid);
    const std::uint32_t grey = colour_byte(background_grey);
    map.categories = {"background"};
    map.category_colours = {grey << 16 | grey << 8 | grey};
    const Matrix<double> palette = image_palette(task);
    for (std::size_t k = 0; k < task.colours; ++k) {
        map.categories.push_back(colour_name(static_cast<std::int64_t>(k)));
        map.category_colours.push_back(colour_byte(palette(k, 0)) << 16 | colour_byte(palette(k, 1)) << 8 |
                                       colour_byte(palette(k, 2)));
    }
    return map;
}

// The patch of image 0 to show the attention of: the coloured one with the most patches of its
// colour, the farthest of them first (a patch whose count needs the whole image).
std::size_t chosen_patch(const ImageBatch& batch) {
    std::size_t best = 0;
    for (std::size_t k = 1; k < batch.classes.shape(1); ++k)
        if (std::make_pair(batch.classes(0, k), batch.farthest(0, k)) >
            std::make_pair(batch.classes(0, best), batch.farthest(0, best)))
            best = k;
    return best;
}

// The trained self-attention weights of one patch of image 0 over the 8 x 8 grid.
plot::Heatmap attention_map(const ImageTask& task, const PatchAttentionTagger& tagger, const ImageBatch& batch,
                            std::size_t patch) {
    const ImageBatch first = select_images(batch, {0});
    const Array<float> weights = tagger.weights(tagger_input(task, first.images));   // (1, n, n)
    const std::size_t row = patch / task.grid, column = patch % task.grid;
    plot::Heatmap map;
    map.title = "Trained self-attention of patch (" + std::to_string(row) + ", " + std::to_string(column) +
                ") over the test image (a " + colour_name(batch.colours(0, patch)) + " patch)";
    map.xlabel = "patch column";
    map.ylabel = "patch row";
    map.values = xt::cast<double>(xt::reshape_view(xt::view(weights, 0, patch, xt::all()), {task.grid, task.grid}));
    map.x_tick_labels = position_labels(task.grid);
    map.y_tick_labels = position_labels(task.grid);
    map.colorbar_label = "attention weight";
    map.z_min = 0.0;
    return map;
}

// Accuracy on the unique colours (which a model that sees part of the image can only guess
// are unique), on the patches whose matches all lie within the convolutions' reach (distance
// 1 to `reach`: both taggers can in principle see all they need, and "count what I see" is
// right), on those beyond it, and overall.
struct ReachScore { double unique, within, beyond, overall; };

ReachScore by_reach(const TaggerScore& score, std::size_t reach) {
    return {accuracy_from_bucket(score, 0, 1), accuracy_from_bucket(score, 1, reach + 1),
            accuracy_from_bucket(score, reach + 1), score.accuracy};
}

// "CNNs win on small data, self-attention on large": both taggers trained again, from the same
// start, on a fixed set of a few images seen many times, and compared on the same test images
// with the run on fresh images above.
void compare_data_sizes(const RunSettings& run, const ImageTask& task, const PatchTaggerSizes& sizes,
                        const ImageBatch& test, const std::vector<std::string>& names,
                        const std::vector<TaggerScore>& fresh, int fresh_steps,
                        const Ranges& ranges, Summary& summary) {
    const std::vector<std::size_t> set_sizes{32, 256};
    Recipe recipe;
    recipe.steps = std::max(1, fresh_steps / 2);   // enough for the small sets to be learnt by heart
    std::printf("\n   Small and large training sets: the same two taggers, from the same start, trained for %d steps\n"
                "   of %zu images drawn from a fixed set (each image of the smaller set is seen about %d times), against\n"
                "   the run above on fresh images; accuracy on the same test images: on the unique colours, on the\n"
                "   patches whose matches all lie within the convolutions' reach (1 to %zu away: both can see all\n"
                "   they need), on those beyond it, and overall:\n",
                recipe.steps, recipe.batch, static_cast<int>(recipe.steps * recipe.batch / set_sizes.front()),
                sizes.conv_layers);
    std::printf("   %-16s %-20s %8s %8s %8s %8s   %s\n", "training images", "", "unique", "within", "beyond", "overall",
                "(final loss)");
    summary.setting("image_small_data_steps", static_cast<double>(recipe.steps));
    const std::vector<std::string> keys{"image_attention", "image_conv"};
    for (const std::size_t size : set_sizes) {
        Rng draw(run.seed + 4000 + size), init(run.seed + 2000);
        const ImageBatch training_set = make_image_batch(task, size, draw);
        std::vector<std::unique_ptr<PatchTagger>> taggers = make_patch_taggers(task, sizes, init);
        for (std::size_t m = 0; m < taggers.size(); ++m) {
            const double loss = train_patch_tagger(*taggers[m], task, recipe, run.seed + 2001, &training_set);
            const ReachScore score = by_reach(score_patch_tagger(*taggers[m], task, test), sizes.conv_layers);
            std::printf("   %-16s %-20s %8.3f %8.3f %8.3f %8.3f   (%.3f)\n",
                        m == 0 ? (std::to_string(size) + " fixed").c_str() : "", taggers[m]->name().c_str(),
                        score.unique, score.within, score.beyond, score.overall, loss);
            if (size == set_sizes.front()) {
                add_metric(summary, ranges, keys[m] + "_small_within",
                           taggers[m]->name() + ": image accuracy within reach, " + std::to_string(size) + " training images",
                           score.within);
                add_metric(summary, ranges, keys[m] + "_small_accuracy",
                           taggers[m]->name() + ": image test accuracy, " + std::to_string(size) + " training images",
                           score.overall);
            }
        }
    }
    for (std::size_t m = 0; m < fresh.size(); ++m) {
        const ReachScore score = by_reach(fresh[m], sizes.conv_layers);
        std::printf("   %-16s %-20s %8.3f %8.3f %8.3f %8.3f\n",
                    m == 0 ? (std::to_string(fresh_steps * static_cast<int>(Recipe{}.batch)) + " fresh").c_str() : "",
                    names[m].c_str(), score.unique, score.within, score.beyond, score.overall);
        add_metric(summary, ranges, keys[m] + "_within", names[m] + ": image accuracy within reach, fresh images",
                   score.within);
    }
}

}  // namespace

void compare_on_images(const RunSettings& run, int steps, const Ranges& ranges, Summary& summary,
                       const std::filesystem::path& out) {
    const ImageTask task;
    const PatchTaggerSizes sizes;
    Recipe recipe;
    recipe.steps = steps;
    summary.setting("image_steps", static_cast<double>(steps));
    Rng init(run.seed + 2000);
    std::vector<std::unique_ptr<PatchTagger>> taggers = make_patch_taggers(task, sizes, init);
    Rng test_rng(run.seed + 3000);
    const ImageBatch test = make_image_batch(task, run.quick ? 200 : 500, test_rng);
    const std::vector<std::string> distances = image_distance_names(task);
    std::printf("\n5. An image as a set of patches: %zu x %zu patches of %zu x %zu pixels in %zu channels, grey but for %zu\n"
                "   patches at random places, each one of %zu colours; noise of sd %g on every pixel. Each coloured patch\n"
                "   is labelled with how many patches share its colour (1 to %zu, more is %zu). patchify turns an image\n"
                "   into %zu vectors of %zu numbers.",
                task.grid, task.grid, task.patch, task.patch, task.channels, task.coloured, task.colours, task.noise,
                task.classes, task.classes, task.patches(), task.channels * task.patch * task.patch);
    std::printf(" The classes among the coloured test patches:");
    const std::vector<double> shares = class_shares(task, test);
    for (std::size_t c = 0; c < task.classes; ++c)
        std::printf("%s %zu%s %.1f%%", c == 0 ? "\n  " : ",", c + 1, c + 1 == task.classes ? "+:" : ":", shares[c]);
    std::printf("\n   Two taggers, each a Linear patch embedding (d %zu), one way of mixing the patches and the counting\n"
                "   task's head; Adam lr %g, clip %g, %d steps of %zu fresh images, the same for both; tested on %zu:\n"
                "   self-attention d_k = d_v = %zu with x + attention(x) (no positions), %zu convolutions 3x3 of %zu\n"
                "   channels over the grid of patch embeddings (reach: %zu patches in every direction)\n",
                sizes.d_model, recipe.lr, recipe.clip, recipe.steps, recipe.batch, test.images.shape(0), sizes.d_model,
                sizes.conv_layers, sizes.conv_channels, sizes.conv_layers);
    std::vector<std::string> names;
    std::vector<TaggerScore> scores;
    std::vector<std::vector<double>> by_distance;
    for (const auto& tagger : taggers) {
        const Stopwatch clock;
        const double loss = train_patch_tagger(*tagger, task, recipe, run.seed + 2001);
        scores.push_back(score_patch_tagger(*tagger, task, test));
        names.push_back(tagger->name());
        by_distance.push_back(scores.back().by_bucket);
        std::printf("   %-22s %6zu parameters, trained in %5.1f s, loss over the last tenth %.3f\n", tagger->name().c_str(),
                    tagger->parameter_count(), clock.seconds(), loss);
    }
    std::printf("\n   test accuracy by the Chebyshev distance from each coloured patch to the farthest other patch of its\n"
                "   colour, in patches\n");
    std::printf("   %-22s %8s", "", "overall");
    for (const std::string& distance : distances) std::printf(" %*s", distance.size() > 6 ? 11 : 6, distance.c_str());
    std::printf("\n");
    for (std::size_t m = 0; m < taggers.size(); ++m) {
        std::printf("   %-22s %8.3f", names[m].c_str(), scores[m].accuracy);
        for (std::size_t k = 0; k < distances.size(); ++k)
            std::printf(" %*.3f", distances[k].size() > 6 ? 11 : 6, scores[m].by_bucket[k]);
        std::printf("\n");
    }
    std::printf("   %-22s %8zu", "coloured patches", test.images.shape(0) * task.coloured);
    for (std::size_t k = 0; k < distances.size(); ++k)
        std::printf(" %*zu", distances[k].size() > 6 ? 11 : 6, scores[0].positions[k]);
    std::printf("\n   (the convolutions reach %zu patches in every direction: distances beyond are out of their sight)\n",
                sizes.conv_layers);

    const std::vector<std::string> keys{"image_attention", "image_conv"};
    for (std::size_t m = 0; m < taggers.size(); ++m) {
        add_metric(summary, ranges, keys[m] + "_accuracy", names[m] + ": image test accuracy", scores[m].accuracy);
        add_metric(summary, ranges, keys[m] + "_accuracy_far",
                   names[m] + ": image accuracy, farthest patch of the colour > " + std::to_string(sizes.conv_layers),
                   accuracy_from_bucket(scores[m], sizes.conv_layers + 1));
        summary.setting(keys[m] + "_parameters", static_cast<double>(taggers[m]->parameter_count()));
    }
    plot::LinePlot accuracy = accuracy_by_distance_plot(names, by_distance, distances,
                                                        "Counting colours: accuracy by distance to the farthest patch of "
                                                        "the same colour");
    accuracy.xlabel = "Chebyshev distance to the farthest other patch of the colour (in patches)";
    // Distance k is at x = k: the convolutions see every match of the patches left of the line.
    const double past_reach = static_cast<double>(sizes.conv_layers) + 0.5;
    accuracy.series.push_back(plot::Series{"convolutions' reach: " + std::to_string(sizes.conv_layers),
                                           {past_reach, past_reach}, {0.0, 1.0}});
    accuracy.series.back().reference = true;
    summary.figure(plot::save_and_report(accuracy, out, "image_accuracy_by_distance"));
    summary.figure(plot::save_and_report(colour_map(task, test), out, "image_example"));
    const std::size_t patch = chosen_patch(test);
    const plot::Heatmap map =
        attention_map(task, dynamic_cast<const PatchAttentionTagger&>(*taggers[0]), test, patch);
    summary.figure(plot::save_and_report(map, out, "image_attention_weights"));
    std::cout << "\n" << plot::preview(map, ::isatty(STDOUT_FILENO) == 1, 80);
    if (!run.quick) compare_data_sizes(run, task, sizes, test, names, scores, steps, ranges, summary);
}

}  // namespace attn::ch04
