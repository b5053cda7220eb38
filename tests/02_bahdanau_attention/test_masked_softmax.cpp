// Self-checks for exercise 02.2: masked_softmax (exercises/02_bahdanau_attention/masked_softmax.cpp).
// The hand-worked properties come first, each built so that one plausible mistake breaks it
// first (see tests/mutants/02_bahdanau_attention/masked_softmax.*); the golden tables follow.
#include "chapters/02_bahdanau_attention/masked_softmax.hpp"
#include "common/autodiff/ops.hpp"
#include "tests/02_bahdanau_attention/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/property.hpp"

#include <cmath>

using attn::Var;
using A = xt::xarray<double>;
using Ids = xt::xarray<std::int64_t>;

namespace {
// masked_softmax of one query's scores (a batch of one sentence) with `length` valid keys.
A one_row(std::initializer_list<double> scores, std::int64_t length) {
    A row = A(scores);
    row.reshape({std::size_t(1), std::size_t(1), scores.size()});
    const A weights = attn::ch02::masked_softmax(attn::constant<double>(row), Ids{length}).value();
    REQUIRE_SHAPE(weights.shape(), {1, 1, scores.size()});
    return xt::view(weights, 0, 0, xt::all());
}
}  // namespace

TEST_CASE("02.2 masked_softmax" * doctest::test_suite("ch02")) {
    PROPERTY("padding takes no share of the softmax: with 1 valid key, the weights still sum to 1, keys 2 and 3 get 0") {
        // Scores of 99 on the padding: a softmax over every position would give them nearly
        // all the weight, and zeroing them afterwards would leave the row summing to ~0.
        const A w = one_row({0.0, 0.0, 99.0, 99.0}, 1);
        CHECK(xt::sum(w)() == doctest::Approx(1.0));
        CHECK(w(2) == 0.0);
        CHECK(w(3) == 0.0);
    };
    PROPERTY("the valid keys are 0 .. length - 1, counted from 0: [0, ln 3, 99] with length 2 give [1/4, 3/4, 0]") {
        // softmax([0, ln 3]) = [1, 3] / 4; key 2 is the first padding position.
        CHECK_ALLCLOSE(one_row({0.0, std::log(3.0), 99.0}, 2), A({0.25, 0.75, 0.0}), 1e-14, 0.0);
    };
    PROPERTY("a row with no valid key is all zeros, not uniform and not NaN") {
        CHECK_ALLCLOSE(one_row({1.0, 2.0, 3.0}, 0), A({0.0, 0.0, 0.0}), 0.0, 0.0);
    };

    const A scores = golden02::load("msm_scores");   // (2, 3, 4); masked places hold +-1000
    const Ids batch_lens = golden02::load_ids("msm_batch_valid_lens");   // [3, 0]
    const Ids query_lens = golden02::load_ids("msm_query_valid_lens");   // [[3, 1, 0], [2, 3, 4]]
    const Var<double> s = attn::parameter<double>(scores);

    PROPERTY("with one length per query (batch, n_q), padding gets exactly 0 and each valid row sums to 1") {
        const A w = attn::ch02::masked_softmax(s, query_lens).value();
        REQUIRE_SHAPE(w.shape(), {2, 3, 4});
        for (std::size_t b = 0; b < 2; ++b)
            for (std::size_t i = 0; i < 3; ++i) {
                CAPTURE(b);
                CAPTURE(i);
                const std::size_t length = static_cast<std::size_t>(query_lens(b, i));
                double total = 0;
                for (std::size_t j = 0; j < 4; ++j) {
                    if (j >= length) CHECK(w(b, i, j) == 0.0);
                    total += w(b, i, j);
                }
                CHECK(total == doctest::Approx(length > 0 ? 1.0 : 0.0));
            }
    };
    PROPERTY("with every key valid it is the plain softmax") {
        CHECK_ALLCLOSE(attn::ch02::masked_softmax(s, Ids{4, 4}).value(), xt::exp(attn::log_softmax(s).value()), 1e-14, 1e-15);
    };
    PROPERTY("it matches the golden weights for one length per sentence (batch)") {
        CHECK_ALLCLOSE(attn::ch02::masked_softmax(s, batch_lens).value(), golden02::load("msm_batch_weights"), 1e-12, 1e-15);
    };
    PROPERTY("it matches the golden weights for one length per query (batch, n_q)") {
        CHECK_ALLCLOSE(attn::ch02::masked_softmax(s, query_lens).value(), golden02::load("msm_query_weights"), 1e-12, 1e-15);
    };
    PROPERTY("its gradients match PyTorch's (zero for empty rows)") {
        attn::backward(attn::ch02::masked_softmax(s, batch_lens), golden02::load("msm_dweights"));
        CHECK_ALLCLOSE(s.grad(), golden02::load("msm_batch_dscores"), 1e-12, 1e-14);
        s.zero_grad();
        attn::backward(attn::ch02::masked_softmax(s, query_lens), golden02::load("msm_dweights"));
        CHECK_ALLCLOSE(s.grad(), golden02::load("msm_query_dscores"), 1e-12, 1e-14);
    };
    PROPERTY("lengths of the wrong shape or size are refused") {
        CHECK_THROWS_AS(attn::ch02::masked_softmax(s, Ids{1, 2, 3}), std::invalid_argument);
        CHECK_THROWS_AS(attn::ch02::masked_softmax(s, Ids{5, 1}), std::invalid_argument);
    };
}
