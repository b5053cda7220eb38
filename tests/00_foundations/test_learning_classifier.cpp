// Chapter 00's model code: the hand-derived gradient (0.9) against numerical differences,
// and a learning test: gradient descent reaches the accuracy the lesson quotes.
#include "chapters/00_foundations/classifier.hpp"
#include "chapters/00_foundations/softmax.hpp"
#include "chapters/00_foundations/toy_data.hpp"
#include "common/random.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/gradients.hpp"

using attn::Matrix;
namespace ch00 = attn::ch00;

TEST_CASE("ch00 model: the hand-derived gradient p - y matches central differences" *
          doctest::test_suite("ch00.golden")) {
    attn::Rng rng(5);
    const ch00::LabelledPoints data = ch00::make_three_clouds(20, rng);
    const Matrix<double> Y = ch00::one_hot(data.labels, ch00::num_classes);
    ch00::LinearClassifier model{rng.normal_matrix<double>(2, 3), rng.normal_matrix<double>(1, 3)};
    const Matrix<double> P = ch00::softmax(ch00::logits(model, data.X));
    const ch00::Gradients hand = ch00::hand_gradients(data.X, P, Y);

    SUBCASE("dW") {
        const auto loss = [&](const xt::xarray<double>& W) {
            return ch00::cross_entropy(ch00::softmax(ch00::logits({W, model.b}, data.X)), Y);
        };
        CHECK(attn::max_relative_error(hand.dW, support::numerical_gradient(loss, model.W)) < 1e-7);
    }
    SUBCASE("db") {
        const auto loss = [&](const xt::xarray<double>& b) {
            return ch00::cross_entropy(ch00::softmax(ch00::logits({model.W, b}, data.X)), Y);
        };
        CHECK(attn::max_relative_error(hand.db, support::numerical_gradient(loss, model.b)) < 1e-7);
    }
}

TEST_CASE("ch00 model: three overlapping clouds are generated as documented" * doctest::test_suite("ch00")) {
    attn::Rng rng(6);
    const ch00::LabelledPoints data = ch00::make_three_clouds(2000, rng);
    REQUIRE(data.labels.size() == 6000);
    for (std::size_t c = 0; c < ch00::num_classes; ++c) {
        double sx = 0, sy = 0, n = 0;
        for (std::size_t k = 0; k < data.labels.size(); ++k)
            if (data.labels[k] == c) sx += data.X(k, 0), sy += data.X(k, 1), n += 1;
        // Centre c sits at angle 90 + 120 c degrees on a circle of radius 2; the mean of
        // 2000 points with standard deviation 1 is within 4 / sqrt(2000) = 0.09 of it.
        const double angle = M_PI / 2 + 2 * M_PI * static_cast<double>(c) / 3;
        CHECK(n == 2000);
        CHECK(std::abs(sx / n - 2 * std::cos(angle)) < 0.09);
        CHECK(std::abs(sy / n - 2 * std::sin(angle)) < 0.09);
    }
}

TEST_CASE("ch00 learning: gradient descent reaches the lesson's accuracy" * doctest::test_suite("ch00.learning")) {
    attn::Rng rng(42);
    const ch00::LabelledPoints train = ch00::make_three_clouds(200, rng);
    const ch00::LabelledPoints test = ch00::make_three_clouds(100, rng);
    const Matrix<double> Y = ch00::one_hot(train.labels, ch00::num_classes);
    ch00::LinearClassifier model = ch00::make_classifier(2, ch00::num_classes);
    double first_loss = 0, last_loss = 0;
    for (int step = 0; step < 300; ++step) {
        const Matrix<double> P = ch00::softmax(ch00::logits(model, train.X));
        last_loss = ch00::cross_entropy(P, Y);
        if (step == 0) first_loss = last_loss;
        const ch00::Gradients g = ch00::hand_gradients(train.X, P, Y);
        model.W -= 0.5 * g.dW;
        model.b -= 0.5 * g.db;
    }
    // Zero weights give uniform probabilities: the first loss is ln 3 = 1.0986.
    CHECK(first_loss == doctest::Approx(std::log(3.0)));
    CHECK(last_loss < 0.26);   // seeds 1-8 end between 0.16 and 0.22
    CHECK(ch00::accuracy(ch00::softmax(ch00::logits(model, test.X)), test.labels) > 0.85);   // seeds 1-8: 0.88 to 0.93
}
