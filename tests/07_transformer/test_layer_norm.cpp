// Self-checks for exercise 07.1: layer_norm (exercises/07_transformer/layer_norm.cpp).
#include "chapters/07_transformer/layer_norm.hpp"
#include "tests/03_queries_keys_values/golden.hpp"
#include "tests/07_transformer/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradcheck.hpp"
#include "tests/support/property.hpp"

#include "common/xtensor_compat.hpp"

#include <cmath>

using attn::Var;
using A = xt::xarray<double>;

namespace {

Var<double> normalise(const A& x, const A& weight, const A& bias, std::size_t dims) {
    return attn::ch07::layer_norm(attn::constant<double>(x), attn::constant<double>(weight),
                                  attn::constant<double>(bias), dims);
}
// Weight 1 and bias 0: the normalisation alone.
Var<double> plain(const A& x, std::size_t d) {
    return normalise(x, xt::ones<double>({d}), xt::zeros<double>({d}), 1);
}

}  // namespace

TEST_CASE("07.1 layer_norm" * doctest::test_suite("ch07")) {
    PROPERTY("the statistics do not depend on the other batch entries (layer, not batch, normalisation)") {
        // Sequence 1 normalised in a batch beside sequence 0, then beside a sequence 0 ten
        // times larger and shifted: its rows must not move, and equal it normalised alone.
        const A x = support::random_array({2, 3, 6}, 1);
        A other = x;
        xt::view(other, 0) = 10.0 * xt::view(x, 0) + 5.0;
        const A alone = xt::view(x, xt::range(1, 2));
        const A in_batch = xt::view(plain(x, 6).value(), 1);
        CHECK_ALLCLOSE(A(xt::view(plain(other, 6).value(), 1)), in_batch, 1e-13, 1e-13);
        CHECK_ALLCLOSE(A(xt::view(plain(alone, 6).value(), 0)), in_batch, 1e-13, 1e-13);
    };
    PROPERTY("each position has mean 0 and variance 1 over its own features before the scale (variance divided by N, not N - 1)") {
        // Rows of different sizes and offsets; each one is normalised over its own 6 features.
        // Exactly, mean(y^2) = var / (var + eps); rtol 1e-4 leaves eps's 1e-5 / var to the
        // next property and catches N - 1 (a factor 5/6) here.
        const A x = support::random_array({2, 3, 6}, 2) * 3.0 + 1.5;
        const A y = plain(x, 6).value();
        REQUIRE_SHAPE(y.shape(), {2, 3, 6});
        const A mu = xt::mean(x, {2}, xt::keep_dims);
        const A centred = x - mu;
        const A variance = xt::mean(centred * centred, {2});   // divided by 6, not 5
        CHECK_ALLCLOSE(A(xt::mean(y, {2})), A(xt::zeros<double>({2, 3})), 0.0, 1e-13);
        CHECK_ALLCLOSE(A(xt::mean(y * y, {2})), A(variance / (variance + 1e-5)), 1e-4, 0.0);
    };
    PROPERTY("eps is added inside the square root: a constant row becomes 0, and [-a, a] becomes [-a, a] / sqrt(a^2 + eps)") {
        // a = 1e-8: a^2 is far below eps = 1e-5, so y = a / sqrt(a^2 + eps) = 3.16e-6, where eps
        // after the root gives a / (a + eps) = 1e-3 and no eps gives 1 (and 0 / 0 for the
        // constant row). The variance's divisor (2 or 1) changes a^2 only, invisible next to eps.
        const double a = 1e-8, expected = a / std::sqrt(a * a + 1e-5);
        const A x = golden03::t2({{-a, a}, {4.0, 4.0}});
        const A y = plain(x, 2).value();
        CHECK_ALLCLOSE(y, golden03::t2({{-expected, expected}, {0.0, 0.0}}), 1e-9, 0.0);
    };
    PROPERTY("weight scales and bias shifts each feature after the normalisation") {
        // Against your own normalisation with weight 1 and bias 0: a mistake in the statistics
        // is left to the properties above, this one fails only if weight or bias is misplaced.
        const A x = support::random_array({3, 4}, 3), w = support::random_array({4}, 4), b = support::random_array({4}, 5);
        CHECK_ALLCLOSE(normalise(x, w, b, 1).value(), A(plain(x, 4).value() * w + b), 1e-14, 1e-14);
    };
    PROPERTY("a 2-D normalised shape takes the statistics over both axes together, not row by row") {
        // x (2, 3, 4) over its last two axes = each (3, 4) block flattened to 12 and normalised:
        // compared with your own 1-D normalisation of those rows of 12, so that only the 2-D
        // handling is tested here (the statistics themselves are checked above).
        const A x = support::random_array({2, 3, 4}, 6), w = support::random_array({3, 4}, 7),
                b = support::random_array({3, 4}, 8);
        const A flat = xt::reshape_view(x, {2, 12});
        const A expected = xt::reshape_view(plain(flat, 12).value(), {2, 3, 4});
        const A y = normalise(x, w, b, 2).value();
        REQUIRE_SHAPE(y.shape(), {2, 3, 4});
        CHECK_ALLCLOSE(y, A(expected * w + b), 1e-12, 1e-13);
    };
    PROPERTY("weight or bias of the wrong shape, or no axis to normalise, are refused") {
        const A x = support::random_array({2, 3}, 9);
        CHECK_THROWS_AS(normalise(x, xt::ones<double>({2}), xt::zeros<double>({3}), 1), std::invalid_argument);
        CHECK_THROWS_AS(normalise(x, xt::ones<double>({3}), xt::zeros<double>({2}), 1), std::invalid_argument);
        CHECK_THROWS_AS(normalise(x, xt::ones<double>({3}), xt::zeros<double>({3}), 0), std::invalid_argument);
        CHECK_THROWS_AS(normalise(x, xt::ones<double>({3}), xt::zeros<double>({3}), 3), std::invalid_argument);
    };
    for (const std::size_t dims : {1, 2}) {
        const std::string name = "d" + std::to_string(dims);
        PROPERTY(("it matches torch.nn.LayerNorm's output and the gradients of x, weight and bias, normalised axes: " +
                  std::to_string(dims)).c_str()) {
            const std::string prefix = "layer_norm/" + name + "_";
            const Var<double> x = attn::parameter<double>(golden07::load(prefix + "x"));
            const Var<double> w = attn::parameter<double>(golden07::load(prefix + "weight"));
            const Var<double> b = attn::parameter<double>(golden07::load(prefix + "bias"));
            const Var<double> y = attn::ch07::layer_norm(x, w, b, dims);
            CHECK_ALLCLOSE(y.value(), golden07::load(prefix + "output"), 1e-12, 1e-13);
            attn::backward(y, golden07::load(prefix + "doutput"));
            CHECK_ALLCLOSE(x.grad(), golden07::load(prefix + "dx"), 1e-10, 1e-12);
            CHECK_ALLCLOSE(w.grad(), golden07::load(prefix + "dweight"), 1e-10, 1e-12);
            CHECK_ALLCLOSE(b.grad(), golden07::load(prefix + "dbias"), 1e-10, 1e-12);
        };
    }
    PROPERTY("the gradients of x, weight and bias match central differences, 1-D and 2-D normalised shapes") {
        for (std::size_t dims : {1, 2}) {
            CAPTURE(dims);
            const std::vector<std::size_t> slice = dims == 1 ? std::vector<std::size_t>{5} : std::vector<std::size_t>{3, 4};
            std::vector<std::size_t> shape = {2, 3};
            shape.insert(shape.end(), slice.begin(), slice.end());
            const support::GradcheckResult check = support::gradcheck(
                [&](const std::vector<Var<double>>& in) { return attn::ch07::layer_norm(in[0], in[1], in[2], dims); },
                {support::random_array(shape, 10), support::random_array(slice, 11), support::random_array(slice, 12)});
            CHECK_MESSAGE(check.worst_error < 1e-7, check.report);
        }
    };
}
