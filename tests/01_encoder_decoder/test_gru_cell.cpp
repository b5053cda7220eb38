// Self-checks for exercise 01.1: gru_cell (exercises/01_encoder_decoder/gru_cell.cpp).
#include "chapters/01_encoder_decoder/gru_cell.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/01_encoder_decoder/golden.hpp"
#include "tests/support/gradients.hpp"

#include <xtensor/xnpy.hpp>

using attn::Var;
using A = xt::xarray<double>;

namespace {
constexpr double golden_tol = golden01::tolerance;

A golden(const std::string& name) { return golden01::load(name); }

// A (1, 1) array holding v.
A one(double v) { return A(xt::xtensor<double, 2>{{v}}); }

// Makes a 1-unit GRU's weights zero and its input biases b = [b_r, b_z, b_n]: then
// r = sigmoid(b_r), z = sigmoid(b_z), n = tanh(b_n + r * 0).
void make_tiny(attn::ch01::GruLayer<double>& gru, double b_r, double b_z, double b_n) {
    gru.weight_ih.value() = xt::zeros<double>({3, 1});
    gru.weight_hh.value() = xt::zeros<double>({3, 1});
    gru.bias_ih.value() = A{b_r, b_z, b_n};
    gru.bias_hh.value() = xt::zeros<double>({3});
}

double step_by_hand(double b_r, double b_z, double b_n, double h) {
    attn::Rng rng(0);
    attn::ch01::GruLayer<double> gru(1, 1, rng);
    make_tiny(gru, b_r, b_z, b_n);
    const Var<double> x_gates = gru.project_inputs(attn::constant<double>(one(0.0)));
    return attn::ch01::gru_cell(x_gates, attn::constant<double>(one(h)), gru).item();
}
}  // namespace

TEST_CASE("01.1 gru_cell" * doctest::test_suite("ch01")) {
    attn::Rng rng(1);
    attn::ch01::GruLayer<double> gru(5, 4, rng);
    golden01::set_weights(gru, "gru_cell_");
    const Var<double> x = attn::parameter<double>(golden("gru_cell_x"));
    const Var<double> h = attn::parameter<double>(golden("gru_cell_h"));
    const Var<double> h_next = attn::ch01::gru_cell(gru.project_inputs(x), h, gru);
    REQUIRE(h_next.shape() == attn::Shape{3, 4});

    SUBCASE("it matches torch.nn.GRUCell on golden data") {
        CHECK_ALLCLOSE(h_next.value(), golden("gru_cell_h_next"), golden_tol, golden_tol);
    }
    SUBCASE("its gradients match PyTorch's autograd") {
        attn::backward(h_next, golden("gru_cell_dh_next"));
        CHECK_ALLCLOSE(x.grad(), golden("gru_cell_dx"), golden_tol, golden_tol);
        CHECK_ALLCLOSE(h.grad(), golden("gru_cell_dh"), golden_tol, golden_tol);
        CHECK_ALLCLOSE(gru.weight_hh.grad(), golden("gru_cell_dweight_hh"), golden_tol, golden_tol);
        CHECK_ALLCLOSE(gru.bias_hh.grad(), golden("gru_cell_dbias_hh"), golden_tol, golden_tol);
        CHECK_ALLCLOSE(gru.weight_ih.grad(), golden("gru_cell_dweight_ih"), golden_tol, golden_tol);
        CHECK_ALLCLOSE(gru.bias_ih.grad(), golden("gru_cell_dbias_ih"), golden_tol, golden_tol);
    }
    SUBCASE("all gates at one half: h' = (1 - 0.5) * tanh(0) + 0.5 * h = h / 2") {
        CHECK(step_by_hand(0, 0, 0, 2.0) == doctest::Approx(1.0));
    }
    SUBCASE("an update gate near 1 keeps the old state") {
        // z = sigmoid(20) = 1 - 2e-9: h' = 2e-9 * tanh(1) + (1 - 2e-9) * 0.8
        CHECK(step_by_hand(0, 20, 1, 0.8) == doctest::Approx(0.8).epsilon(1e-8));
    }
    SUBCASE("an update gate near 0 takes the candidate") {
        // z = sigmoid(-20) ~ 0: h' = n = tanh(0.5 + r * 0) = tanh(0.5) = 0.46212
        CHECK(step_by_hand(3, -20, 0.5, 0.8) == doctest::Approx(std::tanh(0.5)).epsilon(1e-8));
    }
    SUBCASE("the reset gate scales W_hn h + b_hn, not h (PyTorch's placement)") {
        // weight_hh's n row = 0 and b_hn = 2: PyTorch's n = tanh(r * 2); the textbook form
        // tanh(W_hn (r * h)) would ignore b_hn's scaling. With r = sigmoid(-1) = 0.26894:
        attn::Rng tiny_rng(0);
        attn::ch01::GruLayer<double> g(1, 1, tiny_rng);
        make_tiny(g, -1, -20, 0);
        g.bias_hh.value() = A{0, 0, 2};
        const double h_out = attn::ch01::gru_cell(g.project_inputs(attn::constant<double>(one(0.0))),
                                                  attn::constant<double>(one(0.3)), g).item();
        CHECK(h_out == doctest::Approx(std::tanh(2 / (1 + std::exp(1.0)))).epsilon(1e-7));
    }
    SUBCASE("its gradient matches central differences") {
        const support::GradcheckResult r = support::gradcheck(
            [&](const std::vector<Var<double>>& v) { return attn::ch01::gru_cell(v[0], v[1], gru); },
            {support::random_array({2, 12}, 3), support::random_array({2, 4}, 4)});
        INFO(r.report);
        CHECK(r.worst_error < 1e-6);
    }
    SUBCASE("mismatched shapes are refused") {
        CHECK_THROWS_AS(attn::ch01::gru_cell(attn::constant<double>(xt::zeros<double>({3, 11})), h, gru), std::invalid_argument);
    }
}
