// Shared by the key/value cache tests (08.5 and the whole-decoder step): small random
// decoder layers with every parameter random (so that no bias or norm weight hides a
// mistake), sentences with padding, and the one-position slices that stepping feeds in.
#pragma once
#include "chapters/07_transformer/transformer_layers.hpp"
#include "common/autodiff/ops.hpp"
#include "common/random.hpp"
#include "tests/support/gradcheck.hpp"

namespace kv_fixture {

constexpr std::size_t batch = 2, source_len = 5, target_len = 4;

inline attn::ch07::TransformerSizes sizes(attn::ch07::NormPlacement norm) {
    attn::ch07::TransformerSizes s;
    s.d_model = 8;
    s.heads = 2;
    s.feed_forward = 16;
    s.encoder_layers = 1;
    s.decoder_layers = 2;
    s.norm = norm;
    return s;
}

// Every parameter of a module drawn anew, so that biases are not zero and norms not identity.
template <class Module>
void randomize(Module& module, std::uint64_t seed) {
    for (attn::Var<double> p : module.parameters()) {
        const attn::Shape shape = p.shape();
        p.value() = support::random_array(std::vector<std::size_t>(shape.begin(), shape.end()), seed++, 0.5);
    }
}

// Sentence 1's last two source positions are padding; sentence 0 has none.
inline attn::ch03::Mask memory_padding() {
    attn::ch03::Mask padding = xt::zeros<bool>({batch, source_len});
    padding(1, 3) = padding(1, 4) = true;
    return padding;
}

// Entry t along `axis`, kept as an axis of size 1: position t of (batch, m, d) inputs and
// outputs (axis 1), or row t of (batch, heads, m, n) weights (axis 2).
inline attn::Var<double> at(const attn::Var<double>& x, std::size_t t, std::size_t axis = 1) {
    return attn::slice(x, axis, t, t + 1);
}

}  // namespace kv_fixture
