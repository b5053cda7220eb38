// The safe helpers of common/tensor.hpp, including the xtensor pitfalls they guard against.
#include "common/tensor.hpp"
#include "tests/support/check_allclose.hpp"

using attn::Matrix;
using attn::Vector;

TEST_CASE("tensor: row_max and row_sum broadcast correctly against their matrix" * doctest::test_suite("common")) {
    const Matrix<double> X = {{1, 2}, {3, 4}, {5, 6}};
    SUBCASE("row_sum gives (rows, 1) and X / row_sum(X) is right") {
        // The lazy form X / xt::sum(X, {1}, keep_dims) gives {{.33,.4},{.33,.36},{inf,18}} in 0.24.3.
        const Matrix<double> s = attn::row_sum(X);
        REQUIRE(s.shape(1) == 1);
        CHECK_ALLCLOSE(X / s, Matrix<double>({{1.0 / 3, 2.0 / 3}, {3.0 / 7, 4.0 / 7}, {5.0 / 11, 6.0 / 11}}), 1e-15, 0.0);
    }
    SUBCASE("row_max gives each row's maximum") {
        CHECK_ALLCLOSE(X - attn::row_max(X), Matrix<double>({{-1, 0}, {-1, 0}, {-1, 0}}), 0.0, 0.0);
    }
}

TEST_CASE("tensor: argmax is right on 1-D tensors" * doctest::test_suite("common")) {
    // xt::argmax(v, 0) returns 0 (the argmin) for this vector in xtensor 0.24 (xtensor#2550).
    CHECK(attn::argmax(Vector<double>({0, 1, 2, 3, 4})) == 4);
    CHECK(attn::argmax(Vector<double>({3, 9, 9, 1})) == 1);   // first of a tie
    CHECK_THROWS_AS(attn::argmax(Vector<double>()), std::invalid_argument);
    const Vector<std::size_t> best = attn::argmax_rows(Matrix<float>({{0, 5, 1}, {7, 2, 3}}));
    CHECK(best(0) == 1);
    CHECK(best(1) == 0);
}

TEST_CASE("tensor: differences and relative errors" * doctest::test_suite("common")) {
    const Matrix<double> a = {{1, 2}}, b = {{1, 2.5}};
    CHECK(attn::max_abs_diff(a, b) == 0.5);
    CHECK(attn::max_relative_error(a, b) == doctest::Approx(0.5 / 4.5));   // 0.5 / (2 + 2.5)
    CHECK(attn::max_relative_error(a, a) == 0.0);
    const xt::xarray<double> c = {{{3.0, 1.0}}}, d = {{{1.0, 1.0}}};   // any rank: (1, 1, 2)
    CHECK(attn::max_relative_error(c, d) == 0.5);   // 2 / (3 + 1)
    CHECK_THROWS_AS(attn::max_relative_error(a, Matrix<double>({{1}, {2}})), std::invalid_argument);
    CHECK_THROWS_AS(attn::max_abs_diff(a, Matrix<double>({{1}, {2}})), std::invalid_argument);
}

TEST_CASE("tensor: an unfinished exercise names itself and its file" * doctest::test_suite("common")) {
    const attn::NotImplemented error("03.2", "/home/someone/course/exercises/03_qkv_attention/attention.cpp");
    CHECK(std::string(error.what()) ==
          "not implemented yet: exercise 03.2 in exercises/03_qkv_attention/attention.cpp");
    CHECK(attn::course_relative_path("solutions/00_foundations/softmax.cpp") == "solutions/00_foundations/softmax.cpp");
}
