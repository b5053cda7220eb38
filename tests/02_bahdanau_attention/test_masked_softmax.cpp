// Self-checks for exercise 02.2: masked_softmax (exercises/02_bahdanau_attention/masked_softmax.cpp).
#include "chapters/02_bahdanau_attention/masked_softmax.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/02_bahdanau_attention/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"

using attn::Var;
using A = xt::xarray<double>;
using Ids = xt::xarray<std::int64_t>;

TEST_CASE("02.2 masked_softmax" * doctest::test_suite("ch02")) {
    const A scores = golden02::load("msm_scores");   // (2, 3, 4); masked places hold +-1000
    const Ids batch_lens = golden02::load_ids("msm_batch_valid_lens");   // [3, 0]
    const Ids query_lens = golden02::load_ids("msm_query_valid_lens");   // [[3, 1, 0], [2, 3, 4]]
    const Var<double> s = attn::parameter<double>(scores);
    const Var<double> weights = attn::ch02::masked_softmax(s, batch_lens);
    REQUIRE(weights.shape() == attn::Shape{2, 3, 4});

    SUBCASE("it matches the golden weights for one length per sentence (batch)") {
        CHECK_ALLCLOSE(weights.value(), golden02::load("msm_batch_weights"), 1e-12, 1e-15);
    }
    SUBCASE("it matches the golden weights for one length per query (batch, n_q)") {
        CHECK_ALLCLOSE(attn::ch02::masked_softmax(s, query_lens).value(), golden02::load("msm_query_weights"), 1e-12, 1e-15);
    }
    SUBCASE("padding gets exactly zero weight, and the valid part sums to 1") {
        const A w = attn::ch02::masked_softmax(s, query_lens).value();
        for (std::size_t b = 0; b < 2; ++b)
            for (std::size_t i = 0; i < 3; ++i) {
                const std::size_t length = static_cast<std::size_t>(query_lens(b, i));
                double total = 0;
                for (std::size_t j = 0; j < 4; ++j) {
                    if (j >= length) CHECK(w(b, i, j) == 0.0);
                    total += w(b, i, j);
                }
                CHECK(total == doctest::Approx(length > 0 ? 1.0 : 0.0));
            }
    }
    SUBCASE("a row with no valid position is all zeros, not uniform and not NaN") {
        CHECK(xt::all(xt::isfinite(weights.value())));
        CHECK(xt::amax(xt::abs(xt::view(weights.value(), 1, xt::all(), xt::all())))() == 0.0);
    }
    SUBCASE("a case worked by hand: scores [0, ln 3, 99] with 2 valid positions") {
        // softmax([0, ln 3]) = [1/4, 3/4]; the third is padding, however high its score
        const Var<double> row = attn::constant<double>(A(xt::xtensor<double, 3>{{{0.0, std::log(3.0), 99.0}}}));
        CHECK_ALLCLOSE(attn::ch02::masked_softmax(row, Ids{2}).value(), A(xt::xtensor<double, 3>{{{0.25, 0.75, 0.0}}}), 1e-14, 0.0);
    }
    SUBCASE("with every position valid it is the plain softmax") {
        CHECK_ALLCLOSE(attn::ch02::masked_softmax(s, Ids{4, 4}).value(), xt::exp(attn::log_softmax(s).value()), 1e-14, 1e-15);
    }
    SUBCASE("its gradients match PyTorch's (zero for empty rows)") {
        attn::backward(weights, golden02::load("msm_dweights"));
        CHECK_ALLCLOSE(s.grad(), golden02::load("msm_batch_dscores"), 1e-12, 1e-14);
        s.zero_grad();
        attn::backward(attn::ch02::masked_softmax(s, query_lens), golden02::load("msm_dweights"));
        CHECK_ALLCLOSE(s.grad(), golden02::load("msm_query_dscores"), 1e-12, 1e-14);
    }
    SUBCASE("lengths of the wrong shape or size are refused") {
        CHECK_THROWS_AS(attn::ch02::masked_softmax(s, Ids{1, 2, 3}), std::invalid_argument);
        CHECK_THROWS_AS(attn::ch02::masked_softmax(s, Ids{5, 1}), std::invalid_argument);
    }
}
