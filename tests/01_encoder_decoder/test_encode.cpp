// Self-checks for exercise 01.2: encode (exercises/01_encoder_decoder/encode.cpp).
#include "chapters/01_encoder_decoder/encode.hpp"
#include "chapters/01_encoder_decoder/gru_cell.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/property.hpp"
#include "tests/01_encoder_decoder/golden.hpp"
#include "tests/support/gradients.hpp"

#include "common/xtensor_compat.hpp"

using attn::Var;
using A = xt::xarray<double>;

namespace {
constexpr double golden_tol = golden01::tolerance;
A golden(const std::string& name) { return golden01::load(name); }
}  // namespace

TEST_CASE("01.2 encode" * doctest::test_suite("ch01")) {
    // The hand-worked properties first, each named after the mistake that breaks it
    // (tests/mutants/01_encoder_decoder/encode.*); the golden tables follow.
    attn::Rng rng(2);
    attn::ch01::GruLayer<double> gru(5, 4, rng);
    golden01::set_weights(gru, "gru_seq_");
    const attn::IndexVector lengths = xt::load_npy<std::int64_t>(support::data_path("01_encoder_decoder/gru_seq_lengths.npy"));
    const Var<double> X = attn::parameter<double>(golden("gru_seq_x"));   // (3, 6, 5), lengths 6, 4, 1
    const auto run = [&] {
        const attn::ch01::EncoderOutput<double> out = attn::ch01::encode(X, lengths, gru);
        REQUIRE_SHAPE(out.states.shape(), {3, 6, 4});
        REQUIRE_SHAPE(out.final.shape(), {3, 4});
        return out;
    };
    // The state of sentence b after step t, (H).
    const auto state = [](const attn::ch01::EncoderOutput<double>& out, std::size_t b, std::size_t t) {
        return A(xt::view(out.states.value(), b, t, xt::all()));
    };

    PROPERTY("the final state is the last one, not the first: for the full-length sentence, c = h_6") {
        const attn::ch01::EncoderOutput<double> out = run();
        CHECK_ALLCLOSE(xt::view(out.final.value(), 0, xt::all()), state(out, 0, 5), 0.0, 0.0);
    };
    PROPERTY("padding steps leave the state as it is: after the first padding step, every state repeats the one before") {
        const attn::ch01::EncoderOutput<double> out = run();
        for (std::size_t b = 1; b < 3; ++b)
            for (std::size_t t = static_cast<std::size_t>(lengths(b)) + 1; t < 6; ++t) {
                CAPTURE(b);
                CAPTURE(t);
                CHECK_ALLCLOSE(state(out, b, t), state(out, b, t - 1), 0.0, 0.0);
            }
    };
    PROPERTY("reading stops exactly at the length (steps t < length, counted from 0): the state at t = length repeats the one before") {
        const attn::ch01::EncoderOutput<double> out = run();
        for (std::size_t b = 1; b < 3; ++b) {
            CAPTURE(b);
            const std::size_t length = static_cast<std::size_t>(lengths(b));
            CHECK_ALLCLOSE(state(out, b, length), state(out, b, length - 1), 0.0, 0.0);
        }
    };
    PROPERTY("every sentence's final state is its state at its last valid step") {
        const attn::ch01::EncoderOutput<double> out = run();
        for (std::size_t b = 0; b < 3; ++b) {
            CAPTURE(b);
            CHECK_ALLCLOSE(xt::view(out.final.value(), b, xt::all()), state(out, b, static_cast<std::size_t>(lengths(b)) - 1), 0.0, 0.0);
        }
    };
    PROPERTY("the first state is one GRU step from h_0 = 0") {
        const attn::ch01::EncoderOutput<double> out = run();
        const Var<double> x0 = attn::reshape(attn::slice(X, 1, 0, 1), {3, 5});
        const Var<double> h1 = attn::ch01::gru_cell(gru.project_inputs(x0), attn::constant<double>(xt::zeros<double>({3, 4})), gru);
        CHECK_ALLCLOSE(xt::view(out.states.value(), xt::all(), 0, xt::all()), h1.value(), 1e-14, 1e-14);
    };
    PROPERTY("whatever stands in the padding changes nothing") {
        A scrambled = golden("gru_seq_x");
        xt::view(scrambled, 1, xt::range(4, 6), xt::all()) = 100.0;   // sequence 1 has 4 valid steps
        xt::view(scrambled, 2, xt::range(1, 6), xt::all()) = -50.0;   // sequence 2 has 1
        const attn::ch01::EncoderOutput<double> again = attn::ch01::encode(attn::constant<double>(scrambled), lengths, gru);
        CHECK_ALLCLOSE(again.final.value(), run().final.value(), 0.0, 0.0);
    };
    PROPERTY("the final states match nn.GRU on packed (padded) sequences") {
        CHECK_ALLCLOSE(run().final.value(), golden("gru_seq_final"), golden_tol, golden_tol);
    };
    PROPERTY("every state matches PyTorch, padded steps repeating the last valid state") {
        CHECK_ALLCLOSE(run().states.value(), golden("gru_seq_states"), golden_tol, golden_tol);
    };
    PROPERTY("the gradients match PyTorch's autograd") {
        const attn::ch01::EncoderOutput<double> out = run();
        const Var<double> loss = attn::sum(out.states * attn::constant<double>(golden("gru_seq_R1"))) +
                                 attn::sum(out.final * attn::constant<double>(golden("gru_seq_R2")));
        attn::backward(loss);
        CHECK_ALLCLOSE(X.grad(), golden("gru_seq_dx"), golden_tol, golden_tol);
        CHECK_ALLCLOSE(gru.weight_hh.grad(), golden("gru_seq_dweight_hh"), golden_tol, golden_tol);
        CHECK_ALLCLOSE(gru.weight_ih.grad(), golden("gru_seq_dweight_ih"), golden_tol, golden_tol);
        CHECK_ALLCLOSE(gru.bias_hh.grad(), golden("gru_seq_dbias_hh"), golden_tol, golden_tol);
    };
    PROPERTY("lengths that do not fit are refused") {
        CHECK_THROWS_AS(attn::ch01::encode(X, attn::IndexVector{6, 7, 1}, gru), std::invalid_argument);
        CHECK_THROWS_AS(attn::ch01::encode(X, attn::IndexVector{6, 0, 1}, gru), std::invalid_argument);
        CHECK_THROWS_AS(attn::ch01::encode(X, attn::IndexVector{6, 4}, gru), std::invalid_argument);
    };
}
