// Self-checks for exercise 04.4: patchify and unpatchify (exercises/04_self_attention/patchify.cpp).
#include "chapters/04_self_attention/patchify.hpp"
#include "tests/04_self_attention/golden.hpp"
#include "tests/support/check_allclose.hpp"
#include "tests/support/property.hpp"

#include <functional>
#include <numeric>

using A = xt::xarray<double>;

namespace {
// 0, 1, 2, ... in row-major order, in the given shape.
A counting(const std::vector<std::size_t>& shape) {
    A values = xt::arange<double>(static_cast<double>(std::accumulate(shape.begin(), shape.end(), std::size_t{1},
                                                                      std::multiplies<>())));
    values.reshape(shape);
    return values;
}
}  // namespace

TEST_CASE("04.4 patchify" * doctest::test_suite("ch04")) {
    PROPERTY("a 4 x 4 image of 0..15 in 2 x 2 patches, worked by hand: grid order, each patch row by row") {
        //  0  1 |  2  3        patch 0 (top left)     = 0 1 4 5
        //  4  5 |  6  7        patch 1 (top right)    = 2 3 6 7
        //  -----+------        patch 2 (bottom left)  = 8 9 12 13
        //  8  9 | 10 11        patch 3 (bottom right) = 10 11 14 15
        // 12 13 | 14 15
        const A patches = attn::ch04::patchify(counting({1, 1, 4, 4}), 2);
        const A expected = golden03::t3({{{0, 1, 4, 5}, {2, 3, 6, 7}, {8, 9, 12, 13}, {10, 11, 14, 15}}});
        CHECK_ALLCLOSE(patches, expected, 0.0, 0.0);
    };
    PROPERTY("one patch holds its channels one after the other: a 2-channel 2 x 2 image in one 2 x 2 patch") {
        // channel 0 = [[0, 1], [2, 3]], channel 1 = [[4, 5], [6, 7]] -> the patch 0 1 2 3 | 4 5 6 7
        const A patches = attn::ch04::patchify(counting({1, 2, 2, 2}), 2);
        CHECK_ALLCLOSE(patches, golden03::t3({{{0, 1, 2, 3, 4, 5, 6, 7}}}), 0.0, 0.0);
    };
    PROPERTY("with p = 1 every pixel is a patch, and its vector is that pixel's channels") {
        // 3 channels of a 2 x 2 image: pixel (y, x) of channel c holds 4 c + 2 y + x
        const A patches = attn::ch04::patchify(counting({1, 3, 2, 2}), 1);
        CHECK_ALLCLOSE(patches, golden03::t3({{{0, 4, 8}, {1, 5, 9}, {2, 6, 10}, {3, 7, 11}}}), 0.0, 0.0);
    };
    PROPERTY("the shape is (batch, (H/p) (W/p), channels p p), also for images that are not square") {
        const A tall = attn::ch04::patchify(A(xt::zeros<double>({2, 3, 6, 4})), 2);
        const A wide = attn::ch04::patchify(A(xt::zeros<double>({1, 1, 3, 12})), 3);
        REQUIRE_SHAPE(tall.shape(), {2, 6, 12});
        REQUIRE_SHAPE(wide.shape(), {1, 4, 9});
    };
    PROPERTY("unpatchify undoes patchify exactly: unpatchify(patchify(x)) == x") {
        const A images = counting({2, 3, 6, 9});
        for (const std::size_t p : {1, 3}) {
            const A back = attn::ch04::unpatchify(attn::ch04::patchify(images, p), 3, 6, 9, p);
            CHECK_ALLCLOSE(back, images, 0.0, 0.0);
        }
    };
    PROPERTY("patchify undoes unpatchify exactly: patchify(unpatchify(P)) == P") {
        const A patches = counting({2, 6, 12});   // a 3 x 2 grid of 2 x 2 patches of 3 channels
        CHECK_ALLCLOSE(attn::ch04::patchify(attn::ch04::unpatchify(patches, 3, 6, 4, 2), 2), patches, 0.0, 0.0);
    };
    PROPERTY("sizes that do not fit are refused") {
        CHECK_THROWS_AS(attn::ch04::patchify(A(xt::zeros<double>({1, 1, 5, 4})), 2), std::invalid_argument);   // H = 5
        CHECK_THROWS_AS(attn::ch04::patchify(A(xt::zeros<double>({1, 1, 4, 6})), 4), std::invalid_argument);   // W = 6
        CHECK_THROWS_AS(attn::ch04::patchify(A(xt::zeros<double>({1, 4, 4})), 2), std::invalid_argument);      // no channels axis
        CHECK_THROWS_AS(attn::ch04::unpatchify(A(xt::zeros<double>({1, 4, 4})), 1, 4, 4, 1), std::invalid_argument);
    };
    for (const std::string name : {"a", "b"}) {
        PROPERTY(("it matches PyTorch's unfold, both ways, case " + name).c_str()) {
            const A images = golden04::load("patch_" + name + "_images");
            const A patches = golden04::load("patch_" + name + "_patches");
            const std::size_t p = name == "a" ? 2 : 3;   // make_cases.py
            CHECK_ALLCLOSE(attn::ch04::patchify(images, p), patches, 0.0, 0.0);
            CHECK_ALLCLOSE(attn::ch04::unpatchify(patches, images.shape(1), images.shape(2), images.shape(3), p), images,
                           0.0, 0.0);
        };
    }
}
