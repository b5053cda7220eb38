// The two taggers of the image task (see image_taggers.hpp).
#include "chapters/04_self_attention/image_taggers.hpp"

#include "chapters/04_self_attention/self_attention.hpp"
#include "common/autodiff/ops.hpp"

namespace attn::ch04 {

PatchAttentionTagger::PatchAttentionTagger(std::size_t patch_size, std::size_t d_model, std::size_t hidden,
                                           std::size_t classes, Rng& rng)
    : embed(patch_size, d_model, rng), attention({d_model, d_model, d_model, d_model, d_model}, rng),
      head(d_model, hidden, classes, rng) {
    this->register_module("embed", embed);
    this->register_module("attention", attention);
    this->register_module("head", head);
}

Var<float> PatchAttentionTagger::operator()(const Array<float>& patches) const {
    const Var<float> x = embed(constant<float>(patches));   // (batch, n, d)
    // A residual connection: the head sees the patch itself beside what it gathered.
    return head(x + self_attention(attention, x, full_lengths(patches.shape(0), patches.shape(1))).output);
}

Array<float> PatchAttentionTagger::weights(const Array<float>& patches) const {
    return self_attention(attention, embed(constant<float>(patches)), full_lengths(patches.shape(0), patches.shape(1)))
        .weights.value();
}

PatchConvTagger::PatchConvTagger(std::size_t grid_size, std::size_t patch_size, std::size_t d_model,
                                 std::size_t channels, std::size_t layers, std::size_t hidden, std::size_t classes,
                                 Rng& rng)
    : grid(grid_size), embed(patch_size, d_model, rng), head(channels, hidden, classes, rng) {
    this->register_module("embed", embed);
    for (std::size_t l = 0; l < layers; ++l) {
        convolutions.push_back(std::make_unique<Conv2d<float>>(l == 0 ? d_model : channels, channels, 3, rng));
        this->register_module("conv" + std::to_string(l), *convolutions.back());
    }
    this->register_module("head", head);
}

Var<float> PatchConvTagger::operator()(const Array<float>& patches) const {
    const std::size_t batch = patches.shape(0);
    const Var<float> x = embed(constant<float>(patches));   // (batch, grid grid, d), along the grid's rows
    Var<float> h = reshape(x, {batch, grid, grid, x.shape(2)});
    for (const auto& conv : convolutions) h = relu((*conv)(h));   // each layer widens the square by 1 on each side
    return head(reshape(h, {batch, grid * grid, h.shape(3)}));
}

std::string PatchConvTagger::name() const { return std::to_string(convolutions.size()) + " convolutions 3x3"; }

}  // namespace attn::ch04
