// The training step of common/README.md, run for real: a tiny tagger learns which tokens
// are even. If the engine, the loss, clipping or Adam were wrong, the loss would not fall.
#include "common/autodiff/ops.hpp"
#include "common/nn/layers.hpp"
#include "common/nn/optim.hpp"

#include <doctest/doctest.h>

namespace {

struct Tagger : attn::Module<float> {
    attn::Embedding<float> embed;
    attn::Linear<float> out;
    Tagger(std::size_t vocab, std::size_t classes, attn::Rng& rng) : embed(vocab, 32, rng), out(32, classes, rng) {
        register_module("embed", embed);
        register_module("out", out);
    }
    attn::Var<float> operator()(const attn::IndexMatrix& ids) const { return out(attn::tanh(embed(ids))); }
};

}  // namespace

TEST_CASE("toolkit learning: the README's training step teaches a tagger" * doctest::test_suite("common.learning")) {
    attn::Rng rng(42);
    Tagger model(14, 3, rng);   // tokens 4..13 (0..3 are the specials); classes 1 = odd, 2 = even
    attn::Adam<float> adam(model.parameters(), 1e-2);
    REQUIRE(model.parameter_count() == 14 * 32 + 3 * 32 + 3);
    float first = 0, last = 0;
    for (int step = 0; step < 150; ++step) {
        attn::IndexMatrix source = xt::zeros<std::int64_t>({std::size_t(16), std::size_t(8)});
        attn::IndexMatrix target = xt::zeros<std::int64_t>({std::size_t(16), std::size_t(8)});
        for (std::size_t b = 0; b < 16; ++b) {
            const std::size_t length = 3 + rng.below(6);   // the rest stays padding (id 0)
            for (std::size_t t = 0; t < length; ++t) {
                source(b, t) = 4 + static_cast<std::int64_t>(rng.below(10));
                target(b, t) = 1 + source(b, t) % 2;
            }
        }
        const attn::Var<float> loss = attn::cross_entropy(model(source), target, 0);
        adam.zero_grad();
        attn::backward(loss);
        attn::clip_grad_norm(model.parameters(), 1.0);
        adam.step();
        if (step == 0) first = loss.item();
        last = loss.item();
    }
    // ln 3 = 1.10 at the start (nearly uniform over three classes); a solved task is near 0.
    CHECK(first == doctest::Approx(1.1).epsilon(0.15));
    CHECK(last < 0.05f);
}
