// Self-checks for exercise 01.1: gru_cell (exercises/01_encoder_decoder/gru_cell.cpp).
// The hand-worked properties come first, each built so that exactly one plausible mistake
// breaks it (see tests/mutants/01_encoder_decoder/gru_cell.*); the golden tables follow.
#include "chapters/01_encoder_decoder/gru_cell.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/property.hpp"
#include "tests/01_encoder_decoder/golden.hpp"
#include "tests/support/gradients.hpp"

#include <cmath>

using attn::Var;
using A = xt::xarray<double>;

namespace {
constexpr double golden_tol = golden01::tolerance;
constexpr double saturated = 20;   // sigmoid(20) = 1 - 2e-9, sigmoid(-20) = 2e-9: a gate fully open or shut

A golden(const std::string& name) { return golden01::load(name); }

// A (1, 1) array holding v.
A one(double v) { return A(xt::xtensor<double, 2>{{v}}); }

// One step of a 1-unit GRU whose gates are set by hand. Every weight is zero except the
// hidden weight of the n block, w_hn, and the input is 0, so
//   r = sigmoid(b_r), z = sigmoid(b_z), n = tanh(b_n + r * (w_hn * h + b_hn)).
struct TinyGru {
    double b_r = 0, b_z = 0, b_n = 0, w_hn = 0, b_hn = 0;

    double step(double h) const {
        attn::Rng rng(0);
        attn::ch01::GruLayer<double> gru(1, 1, rng);
        gru.weight_ih.value() = xt::zeros<double>({3, 1});
        gru.weight_hh.value() = A(xt::xtensor<double, 2>{{0.0}, {0.0}, {w_hn}});
        gru.bias_ih.value() = A{b_r, b_z, b_n};
        gru.bias_hh.value() = A{0.0, 0.0, b_hn};
        const Var<double> x_gates = gru.project_inputs(attn::constant<double>(one(0.0)));
        return attn::ch01::gru_cell(x_gates, attn::constant<double>(one(h)), gru).item();
    }
};
}  // namespace

TEST_CASE("01.1 gru_cell" * doctest::test_suite("ch01")) {
    PROPERTY("the update gate keeps the old state: z = 1 gives h' = h, whatever the candidate") {
        // (1.5) with z = 1: h' = 0 * n + 1 * h. Swapping z and 1 - z gives n = tanh(1) = 0.76 instead.
        const TinyGru gru{saturated, saturated, 1.0};
        CHECK(gru.step(0.8) == doctest::Approx(0.8).epsilon(1e-8));
    };
    PROPERTY("the gates are read in the order r, z, n: r from the first block, z from the second") {
        // b_r = -20 shuts r, b_z = 0 gives z = 1/2, w_hn = 2: n = tanh(0 * 2h) = 0, h' = h / 2 = 0.4.
        // With r and z swapped, r = 1/2 and z = 0: h' = n = tanh(0.8) = 0.66.
        const TinyGru gru{-saturated, 0.0, 0.0, 2.0};
        CHECK(gru.step(0.8) == doctest::Approx(0.4).epsilon(1e-8));
    };
    PROPERTY("the candidate goes through tanh: z = 0 and b_n = 3 give h' = tanh(3), not 3") {
        const TinyGru gru{saturated, -saturated, 3.0};
        CHECK(gru.step(0.8) == doctest::Approx(std::tanh(3.0)).epsilon(1e-8));
    };
    PROPERTY("the reset gate scales W_hn h + b_hn (PyTorch's form), not h before the product") {
        // b_hn = 2, w_hn = 0, z = 0: PyTorch's n = tanh(r * 2) with r = sigmoid(-1) = 0.26894,
        // so h' = tanh(0.53788) = 0.49137. The textbook tanh(w_hn (r h) + b_hn) = tanh(2) ignores r.
        const TinyGru gru{-1.0, -saturated, 0.0, 0.0, 2.0};
        CHECK(gru.step(0.3) == doctest::Approx(std::tanh(2 / (1 + std::exp(1.0)))).epsilon(1e-7));
    };
    PROPERTY("a step worked by hand: every gate at one half, h' = (1 - 0.5) * tanh(0) + 0.5 * h = h / 2") {
        const TinyGru gru{};
        CHECK(gru.step(2.0) == doctest::Approx(1.0));
    };

    attn::Rng rng(1);
    attn::ch01::GruLayer<double> gru(5, 4, rng);
    golden01::set_weights(gru, "gru_cell_");
    const Var<double> x = attn::parameter<double>(golden("gru_cell_x"));
    const Var<double> h = attn::parameter<double>(golden("gru_cell_h"));

    PROPERTY("it matches torch.nn.GRUCell on golden data") {
        CHECK_ALLCLOSE(attn::ch01::gru_cell(gru.project_inputs(x), h, gru).value(), golden("gru_cell_h_next"), golden_tol,
                       golden_tol);
    };
    PROPERTY("its gradients match PyTorch's autograd") {
        attn::backward(attn::ch01::gru_cell(gru.project_inputs(x), h, gru), golden("gru_cell_dh_next"));
        CHECK_ALLCLOSE(x.grad(), golden("gru_cell_dx"), golden_tol, golden_tol);
        CHECK_ALLCLOSE(h.grad(), golden("gru_cell_dh"), golden_tol, golden_tol);
        CHECK_ALLCLOSE(gru.weight_hh.grad(), golden("gru_cell_dweight_hh"), golden_tol, golden_tol);
        CHECK_ALLCLOSE(gru.bias_hh.grad(), golden("gru_cell_dbias_hh"), golden_tol, golden_tol);
        CHECK_ALLCLOSE(gru.weight_ih.grad(), golden("gru_cell_dweight_ih"), golden_tol, golden_tol);
        CHECK_ALLCLOSE(gru.bias_ih.grad(), golden("gru_cell_dbias_ih"), golden_tol, golden_tol);
    };
    PROPERTY("its gradient matches central differences") {
        const support::GradcheckResult r = support::gradcheck(
            [&](const std::vector<Var<double>>& v) { return attn::ch01::gru_cell(v[0], v[1], gru); },
            {support::random_array({2, 12}, 3), support::random_array({2, 4}, 4)});
        INFO(r.report);
        CHECK(r.worst_error < 1e-6);
    };
    PROPERTY("mismatched shapes are refused") {
        CHECK_THROWS_AS(attn::ch01::gru_cell(attn::constant<double>(xt::zeros<double>({3, 11})), h, gru), std::invalid_argument);
    };
}
