// Chapter 04's comparison on the image task: the two patch taggers (image_taggers.hpp)
// trained on the same batches with the counting task's recipe, then scored on the same test
// images overall and by the Chebyshev distance to the farthest patch of each patch's colour.
#pragma once
#include "chapters/04_self_attention/counting.hpp"
#include "chapters/04_self_attention/image_task.hpp"
#include "chapters/04_self_attention/image_taggers.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace attn::ch04 {

// Sizes chosen so that the two taggers have about the same number of parameters.
struct PatchTaggerSizes {
    std::size_t d_model = 32;         // patch embedding size (and the self-attention layer's width)
    std::size_t hidden = 64;          // the head's hidden layer, as in the counting task
    std::size_t conv_channels = 12;
    std::size_t conv_layers = 2;      // reach: 2 patches in every direction, a 5 x 5 square
};

// Self-attention, then the convolutions: in this order everywhere in part 5.
std::vector<std::unique_ptr<PatchTagger>> make_patch_taggers(const ImageTask& task, const PatchTaggerSizes& sizes,
                                                             Rng& rng);

// What the taggers read: the images' patch vectors (patchify), each pixel centred on the grey
// background and scaled to about unit size, as images are usually standardised before a
// network sees them. images (batch, channels, side, side) -> (batch, grid * grid, channels p p).
Array<float> tagger_input(const ImageTask& task, const Array<float>& images);

// Trains `tagger` for recipe.steps steps of recipe.batch images drawn from Rng(data_seed), on their coloured patches,:
// fresh images every step, or, given a training set, images picked from it at random (so
// every image is seen about steps * batch / size times). Returns train_steps' tail loss.
double train_patch_tagger(PatchTagger& tagger, const ImageTask& task, const Recipe& recipe, std::uint64_t data_seed,
                          const ImageBatch* training_set = nullptr);

// Accuracy over every patch of `test`, and per farthest distance 0 ... grid - 1.
TaggerScore score_patch_tagger(const PatchTagger& tagger, const ImageTask& task, const ImageBatch& test);

}  // namespace attn::ch04
