// Training and scoring the patch taggers (see image_comparison.hpp).
#include "chapters/04_self_attention/image_comparison.hpp"

#include "chapters/04_self_attention/patchify.hpp"
#include "common/autodiff/ops.hpp"

namespace attn::ch04 {

Array<float> tagger_input(const ImageTask& task, const Array<float>& images) {
    return patchify<float>((images - static_cast<float>(background_grey)) / 0.25f, task.patch);
}

std::vector<std::unique_ptr<PatchTagger>> make_patch_taggers(const ImageTask& task, const PatchTaggerSizes& sizes,
                                                             Rng& rng) {
    const std::size_t patch_size = task.channels * task.patch * task.patch;
    std::vector<std::unique_ptr<PatchTagger>> taggers;
    taggers.push_back(std::make_unique<PatchAttentionTagger>(patch_size, sizes.d_model, sizes.hidden, task.classes, rng));
    taggers.push_back(std::make_unique<PatchConvTagger>(task.grid, patch_size, sizes.d_model, sizes.conv_channels,
                                                        sizes.conv_layers, sizes.hidden, task.classes, rng));
    return taggers;
}

double train_patch_tagger(PatchTagger& tagger, const ImageTask& task, const Recipe& recipe, std::uint64_t data_seed,
                          const ImageBatch* training_set) {
    return train_steps(tagger.parameters(), recipe, data_seed, [&](Rng& data) {
        ImageBatch batch;
        if (training_set) {
            std::vector<std::size_t> which(recipe.batch);
            for (std::size_t& b : which) b = data.below(training_set->images.shape(0));
            batch = select_images(*training_set, which);
        } else {
            batch = make_image_batch(task, recipe.batch, data);
        }
        return cross_entropy(tagger(tagger_input(task, batch.images)), batch.classes, background);
    });
}

TaggerScore score_patch_tagger(const PatchTagger& tagger, const ImageTask& task, const ImageBatch& test) {
    const Array<double> scores = xt::cast<double>(tagger(tagger_input(task, test.images)).value());
    return score_predictions(scores, test.classes, test.farthest, task.grid, [](std::size_t distance) { return distance; });
}

}  // namespace attn::ch04
