// Self-checks for exercise 02.4: attention_decoder_step (exercises/02_bahdanau_attention/attention_decoder_step.cpp).
#include "chapters/01_encoder_decoder/gru_cell.hpp"
#include "chapters/02_bahdanau_attention/attention_decoder_step.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/property.hpp"

using attn::Var;
using A = xt::xarray<double>;

namespace {

// A small decoder: embedding 3, hidden 4, attention hidden 4, vocabulary 5, source length 6.
struct Fixture {
    attn::Rng rng{11};
    attn::ch02::AdditiveAttention<double> attention{4, 4, 4, rng};
    attn::ch01::GruLayer<double> gru{3 + 4, 4, rng};
    attn::Linear<double> output{4, 5, rng};
    attn::IndexVector lens{6, 3};
    attn::ch02::AttentionDecoderLayers<double> layers() const { return {attention, gru, output}; }
    attn::ch02::EncoderMemory<double> memory(const Var<double>& states) const {
        return {states, attention.project_keys(states), lens};
    }
};

}  // namespace

TEST_CASE("02.4 attention_decoder_step" * doctest::test_suite("ch02")) {
    // The targeted properties first, each named after the mistake that breaks it
    // (tests/mutants/02_bahdanau_attention/attention_decoder_step.*).
    Fixture f;
    const Var<double> embedded = attn::constant<double>(support::random_array({2, 3}, 1));
    const Var<double> previous = attn::constant<double>(support::random_array({2, 4}, 2));
    const Var<double> states = attn::constant<double>(support::random_array({2, 6, 4}, 3));
    const auto step = [&] {
        const attn::ch02::DecoderStepOutput<double> out = attn::ch02::attention_decoder_step(embedded, previous, f.memory(states), f.layers());
        REQUIRE_SHAPE(out.logits.shape(), {2, 5});
        REQUIRE_SHAPE(out.state.shape(), {2, 4});
        REQUIRE_SHAPE(out.weights.shape(), {2, 6});
        return out;
    };
    // What each stage should give, built from the chapter's own pieces: (2.5) then (2.6).
    const auto expected_attention = [&] {
        return attn::ch02::additive_attention(attn::reshape(previous, {2, 1, 4}), f.memory(states).keys, states,
                                              xt::xarray<std::int64_t>(f.lens), f.attention);
    };
    const auto expected_state = [&] {
        const Var<double> x = attn::concat<double>({embedded, attn::reshape(expected_attention().context, {2, 4})}, 1);
        return attn::ch01::gru_cell(f.gru.project_inputs(x), previous, f.gru);
    };

    PROPERTY("padding never receives weight: attend with each sentence's own length (sentence 1 has 3 of 6)") {
        const A weights = step().weights.value();
        CHECK(xt::amax(xt::view(weights, 1, xt::range(3, 6)))() == 0.0);
        CHECK(xt::sum(xt::view(weights, 1, xt::all()))() == doctest::Approx(1.0));
    };
    PROPERTY("the query is the previous state: the weights are additive attention's for s_{t-1}") {
        CHECK_ALLCLOSE(step().weights.value(), attn::reshape(expected_attention().weights, {2, 6}).value(), 1e-14, 1e-15);
    };
    PROPERTY("the context is fed to the GRU: the new state is one GRU step on [embedding; context] from s_{t-1}") {
        CHECK_ALLCLOSE(step().state.value(), expected_state().value(), 1e-14, 1e-14);
    };
    PROPERTY("the logits score the new state s_t, not the previous one") {
        CHECK_ALLCLOSE(step().logits.value(), f.output(expected_state()).value(), 1e-14, 1e-14);
    };
    PROPERTY("its gradients match central differences (embedding, state, encoder states)") {
        const support::GradcheckResult r = support::gradcheck(
            [&](const std::vector<Var<double>>& v) {
                const attn::ch02::DecoderStepOutput<double> out = attn::ch02::attention_decoder_step(v[0], v[1], f.memory(v[2]), f.layers());
                return attn::concat<double>({out.logits, out.state}, 1);
            },
            {embedded.value(), previous.value(), states.value()});
        INFO(r.report);
        CHECK(r.worst_error < 1e-6);
    };
}
