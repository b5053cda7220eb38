// Gradient checks of whole sequence-to-sequence models (chapters 01 and 02): the gradient that
// backward() gives one named parameter, against central differences of the loss on a tiny batch.
#pragma once
#include "chapters/01_encoder_decoder/seq2seq.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/support/gradients.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

namespace support {

// Two pairs over source tokens {a, b, c} and target tokens {x, y}, of different lengths, so
// padding is exercised: 7 source ids and 6 target ids with the four specials.
inline attn::data::Batch tiny_translation_batch() {
    const std::vector<attn::data::Pair> pairs = {{{"a", "b", "c"}, {"x", "y"}}, {{"c"}, {"y", "y", "x"}}};
    const attn::data::Vocab source = attn::data::Vocab::build({{"a", "b", "c"}});
    const attn::data::Vocab target = attn::data::Vocab::build({{"x", "y"}});
    return attn::data::make_batch(pairs, {0, 1}, source, target);
}

// max relative error between backward()'s gradient of the teacher-forced loss with respect to
// parameter `name` and central differences of that loss.
inline double model_gradient_error(attn::ch01::Seq2SeqModel<double>& model, const attn::data::Batch& batch,
                                   const std::string& name) {
    attn::Var<double> weight;
    for (const auto& [n, v] : model.named_parameters())
        if (n == name) weight = v;
    if (!weight.defined()) throw std::invalid_argument("model_gradient_error: no parameter named " + name);
    const auto loss = [&]() { return attn::cross_entropy(model.forward(batch), batch.target_out, attn::data::pad_id); };
    model.zero_grad();
    attn::backward(loss());
    const xt::xarray<double> analytic = weight.grad(), original = weight.value();
    const xt::xarray<double> numeric = numerical_gradient([&](const xt::xarray<double>& w) {
        weight.value() = w;
        const double value = loss().item();
        weight.value() = original;
        return value;
    }, original);
    return attn::max_relative_error(analytic, numeric);
}

// Attention weights (batch, T, S) of a model on `batch`: every step's row is a distribution
// over the sentence's valid source positions (non-negative, exactly 0 on padding, sum 1).
inline void check_weights_over_sources(const xt::xarray<double>& weights, const attn::data::Batch& batch) {
    const std::size_t T = weights.shape(1), S = weights.shape(2);
    for (std::size_t b = 0; b < weights.shape(0); ++b)
        for (std::size_t t = 0; t < T; ++t) {
            double total = 0;
            for (std::size_t j = 0; j < S; ++j) {
                const double w = weights(b, t, j);
                CHECK(w >= 0.0);
                if (j >= std::size_t(batch.source_lens(b))) CHECK(w == 0.0);   // padding
                total += w;
            }
            CHECK(total == doctest::Approx(1.0).epsilon(1e-12));
        }
}

}  // namespace support
