// Self-checks for exercise 04.1: self_attention (exercises/04_self_attention/self_attention.cpp).
#include "chapters/04_self_attention/self_attention.hpp"
#include "chapters/03_queries_keys_values/length_mask.hpp"
#include "chapters/03_queries_keys_values/project_and_attend.hpp"
#include "chapters/04_self_attention/worked_example.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/04_self_attention/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/property.hpp"

#include <cmath>

using attn::Var;
using A = xt::xarray<double>;
using Ids = xt::xarray<std::int64_t>;

namespace {

// A layer with the given weights (out, in); its sizes follow from their shapes.
struct Layer {
    attn::Rng rng{1};
    attn::ch03::AttentionLayer<double> layer;
    Layer(const A& W_q, const A& W_k, const A& W_v)
        : layer({W_q.shape(1), W_q.shape(1), W_q.shape(1), W_q.shape(0), W_v.shape(0)}, rng) {
        layer.W_q.weight.value() = W_q;
        layer.W_k.weight.value() = W_k;
        layer.W_v.weight.value() = W_v;
    }
};

// The golden case's layer: d_model 6, d_k 4, d_v 6 (make_cases.py).
struct GoldenLayer : Layer {
    GoldenLayer() : Layer(golden04::load("sa_W_q"), golden04::load("sa_W_k"), golden04::load("sa_W_v")) {}
};

}  // namespace

TEST_CASE("04.1 self_attention" * doctest::test_suite("ch04")) {
    // First, so that swapping W_q and W_k is named before the worked example, which it also
    // breaks but which points at the scaling. The swap transposes the scores (Q K^T becomes
    // K Q^T), so a zero W_q alone would not catch it: both orders then score 0. A single word
    // with a zero query does: its own row stays uniform, while the swap gives that row the
    // other words' queries against its key.
    PROPERTY("the queries come from W_q and the keys from W_k: a word whose query W_q x is 0 weighs all words "
             "equally, whatever W_k") {
        // three one-hot words in d_model 3, so W x picks a column: q_2 = column 2 of W_q = 0
        attn::Rng rng(11);
        A W_q = rng.normal_matrix<double>(2, 3);
        xt::view(W_q, xt::all(), 2) = 0.0;
        for (int draw = 0; draw < 3; ++draw) {
            const A W_k = rng.normal_matrix<double>(2, 3);
            const Layer words(W_q, W_k, A(xt::eye<double>(3)));
            A X = xt::eye<double>(3);
            X.reshape({1, 3, 3});
            const auto result = attn::ch04::self_attention(words.layer, attn::constant<double>(X),
                                                           attn::ch04::full_lengths(1, 3));
            const A row_of_word_2 = xt::view(result.weights.value(), 0, xt::range(2, 3), xt::all());
            CHECK_ALLCLOSE(row_of_word_2, golden03::t2({{1.0 / 3, 1.0 / 3, 1.0 / 3}}), 1e-15, 0.0);
        }
    };
    PROPERTY("the worked example: scores 112 and 96 in d_k = 64 are scaled to 14 and 12, giving weights 0.8808 and 0.1192") {
        // chapters/04_self_attention/worked_example.hpp builds it: two one-hot words in d_model 2,
        //   word 0: q_0.k_0 = 64 * 1.75 = 112, q_0.k_1 = 64 * 1.5 = 96; / sqrt(64) -> 14, 12
        //   softmax(14, 12) = (1 / (1 + e^-2), 1 / (1 + e^2)) = (0.8808, 0.1192)
        //   word 1: q_1 = 0 scores both words 0 -> (0.5, 0.5)
        const attn::ch04::WorkedExample<double> example;
        const auto& layer = example.layer;
        const Var<double>& X = example.X;
        const A raw = attn::bmm(layer.W_q(X), layer.W_k(X), false, true).value();   // the example itself
        REQUIRE(raw(0, 0, 0) == 112.0);
        REQUIRE(raw(0, 0, 1) == 96.0);
        REQUIRE(X.shape(2) != layer.W_q.weight.shape(0));   // d_model 2 != d_k 64

        const auto result = attn::ch04::self_attention(layer, X, attn::ch04::full_lengths(1, 2));
        const double w0 = 1 / (1 + std::exp(-2.0)), w1 = 1 / (1 + std::exp(2.0));
        CHECK_ALLCLOSE(result.weights.value(), golden03::t3({{{w0, w1}, {0.5, 0.5}}}), 1e-13, 0.0);
        CHECK_ALLCLOSE(result.output.value(), golden03::t3({{{w0, w1}, {0.5, 0.5}}}), 1e-13, 0.0);   // W_v = I
    };
    PROPERTY("the values go through W_v: one position returns W_v x") {
        const Layer one(golden03::t2({{1.0}}), golden03::t2({{1.0}}), golden03::t2({{3.0}}));
        const auto result = attn::ch04::self_attention(one.layer, attn::constant<double>(golden03::t3({{{2.0}}})),
                                                       attn::ch04::full_lengths(1, 1));
        CHECK_ALLCLOSE(result.output.value(), golden03::t3({{{6.0}}}), 1e-15, 0.0);
    };
    PROPERTY("padding blocks keys, not queries: a padded position's own row still looks at the valid keys") {
        const GoldenLayer golden;
        const auto result = attn::ch04::self_attention(golden.layer, attn::constant<double>(golden04::load("sa_X")),
                                                       Ids{5, 3});
        const A padded_row = xt::view(result.weights.value(), 1, 4, xt::all());   // query 4 of a length-3 sequence
        CHECK(padded_row(0) > 0.0);
        CHECK(padded_row(2) > 0.0);
        CHECK(xt::sum(padded_row)() == doctest::Approx(1.0).epsilon(1e-12));
    };
    PROPERTY("every position attends over the valid keys only: padded keys get weight exactly 0, rows sum to 1") {
        const GoldenLayer golden;
        const auto result = attn::ch04::self_attention(golden.layer, attn::constant<double>(golden04::load("sa_X")),
                                                       Ids{5, 3});
        const A w = result.weights.value();
        REQUIRE_SHAPE(w.shape(), {2, 5, 5});
        REQUIRE_SHAPE(result.output.shape(), {2, 5, 6});
        CHECK(xt::amax(xt::abs(xt::view(w, 1, xt::all(), xt::range(3, 5))))() == 0.0);   // keys 3, 4 are padding
        CHECK_ALLCLOSE(xt::sum(w, {2}), xt::ones<double>({2, 5}), 1e-12, 0.0);
    };
    PROPERTY("shuffling the positions shuffles the output rows and the weights the same way (permutation equivariance)") {
        // O(P X) = P O(X) and A(P X) = P A(X) P^T: nothing in (4.1)-(4.3) knows where a row stands.
        attn::Rng rng(7);
        const attn::ch03::AttentionLayer<double> layer({5, 5, 5, 3, 4}, rng);
        A X = rng.normal_matrix<double>(12, 5);
        X.reshape({2, 6, 5});
        const std::vector<std::size_t> order = rng.permutation(6);
        const A X_shuffled = xt::view(X, xt::all(), xt::keep(order), xt::all());
        const auto plain = attn::ch04::self_attention(layer, attn::constant<double>(X), attn::ch04::full_lengths(2, 6));
        const auto shuffled =
            attn::ch04::self_attention(layer, attn::constant<double>(X_shuffled), attn::ch04::full_lengths(2, 6));
        const A output_then_shuffled = xt::view(plain.output.value(), xt::all(), xt::keep(order), xt::all());
        const A rows_shuffled = xt::view(plain.weights.value(), xt::all(), xt::keep(order), xt::all());
        const A weights_then_shuffled = xt::view(rows_shuffled, xt::all(), xt::all(), xt::keep(order));
        CHECK_ALLCLOSE(shuffled.output.value(), output_then_shuffled, 1e-12, 1e-14);
        CHECK_ALLCLOSE(shuffled.weights.value(), weights_then_shuffled, 1e-12, 1e-14);
    };
    PROPERTY("it is chapter 03's layer with X as the queries, the keys and the values at once") {
        const GoldenLayer golden;
        const Var<double> X = attn::constant<double>(golden04::load("sa_X"));
        const auto self = attn::ch04::self_attention(golden.layer, X, Ids{5, 3});
        const auto general =
            attn::ch03::project_and_attend(golden.layer, X, X, X, attn::ch03::length_mask(Ids{5, 3}, 5, 5));
        CHECK_ALLCLOSE(self.weights.value(), general.weights.value(), 1e-14, 1e-15);
        CHECK_ALLCLOSE(self.output.value(), general.output.value(), 1e-14, 1e-15);
    };
    PROPERTY("its gradient with respect to X matches central differences (with padding)") {
        const GoldenLayer golden;
        const support::GradcheckResult check = support::gradcheck(
            [&](const std::vector<Var<double>>& in) {
                return attn::ch04::self_attention(golden.layer, in[0], Ids{5, 3}).output;
            },
            {golden04::load("sa_X")});
        CHECK_MESSAGE(check.worst_error < 1e-7, check.report);
    };
    for (const std::string name : {"full", "padded"}) {
        PROPERTY(("it matches PyTorch's output, weights and gradients dX, dW_q, dW_k, dW_v, lengths: " + name).c_str()) {
            const GoldenLayer golden;
            const auto& layer = golden.layer;
            const Var<double> X = attn::parameter<double>(golden04::load("sa_X"));
            const auto result = attn::ch04::self_attention(layer, X, golden04::load_ids("sa_" + name + "_valid_lens"));
            CHECK_ALLCLOSE(result.weights.value(), golden04::load("sa_" + name + "_weights"), 1e-12, 1e-14);
            CHECK_ALLCLOSE(result.output.value(), golden04::load("sa_" + name + "_output"), 1e-12, 1e-14);
            attn::backward(result.output, golden04::load("sa_doutput"));
            CHECK_ALLCLOSE(X.grad(), golden04::load("sa_" + name + "_dX"), 1e-10, 1e-12);
            CHECK_ALLCLOSE(layer.W_q.weight.grad(), golden04::load("sa_" + name + "_dW_q"), 1e-10, 1e-12);
            CHECK_ALLCLOSE(layer.W_k.weight.grad(), golden04::load("sa_" + name + "_dW_k"), 1e-10, 1e-12);
            CHECK_ALLCLOSE(layer.W_v.weight.grad(), golden04::load("sa_" + name + "_dW_v"), 1e-10, 1e-12);
        };
    }
    PROPERTY("inputs that do not fit are refused") {
        const GoldenLayer golden;
        const auto& layer = golden.layer;
        const Var<double> X = attn::constant<double>(golden04::load("sa_X"));
        CHECK_THROWS_AS(attn::ch04::self_attention(layer, X, Ids{5, 6}), std::invalid_argument);   // 6 > n = 5
        CHECK_THROWS_AS(attn::ch04::self_attention(layer, X, Ids{5}), std::invalid_argument);      // batch is 2
        const Var<double> narrow = attn::constant<double>(A(xt::zeros<double>({2, 5, 3})));        // d_model is 6
        CHECK_THROWS_AS(attn::ch04::self_attention(layer, narrow, Ids{5, 5}), std::invalid_argument);
    };
}
