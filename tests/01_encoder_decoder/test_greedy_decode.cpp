// Self-checks for exercise 01.3: greedy_decode (exercises/01_encoder_decoder/greedy_decode.cpp).
#include "chapters/01_encoder_decoder/greedy_decode.hpp"

#include <doctest/doctest.h>

#include <map>

using attn::Var;

namespace {

constexpr std::int64_t bos = 1, eos = 2, vocab = 8;

// A fake decoder: row b's next token is successor[b][previous token]. It returns negative
// scores with the chosen token highest (so argmin would pick something else), and records
// the inputs it was given.
struct ScriptedDecoder {
    std::vector<std::map<std::int64_t, std::int64_t>> successor;
    std::vector<std::vector<std::int64_t>> inputs;   // one entry per call

    attn::ch01::DecodeStep<double> step() {
        return [this](const attn::IndexVector& previous) {
            inputs.emplace_back(previous.begin(), previous.end());
            xt::xarray<double> logits = xt::zeros<double>({previous.size(), std::size_t(vocab)});
            for (std::size_t b = 0; b < previous.size(); ++b) {
                for (std::int64_t v = 0; v < vocab; ++v) logits(b, v) = -10.0 - static_cast<double>(v);
                const auto next = successor[b].find(previous(b));
                logits(b, next == successor[b].end() ? 7 : next->second) = -1.0;   // unknown input: token 7
            }
            return attn::constant<double>(logits);
        };
    }
};

}  // namespace

TEST_CASE("01.3 greedy_decode" * doctest::test_suite("ch01")) {
    // Row 0: bos -> 5 -> 4 -> eos.   Row 1: bos -> 6 -> eos.   Row 2: bos -> 3 -> 3 -> 3 ... (never ends)
    ScriptedDecoder decoder{{{{bos, 5}, {5, 4}, {4, eos}}, {{bos, 6}, {6, eos}}, {{bos, 3}, {3, 3}}}, {}};
    const std::vector<std::vector<std::int64_t>> out = attn::ch01::greedy_decode<double>(decoder.step(), 3, 6, bos, eos);
    REQUIRE(out.size() == 3);

    SUBCASE("each row follows its own highest score and stops at <eos>, which is not kept") {
        CHECK(out[0] == std::vector<std::int64_t>{5, 4});
        CHECK(out[1] == std::vector<std::int64_t>{6});
    }
    SUBCASE("a row that never says <eos> stops at max_len tokens") {
        CHECK(out[2] == std::vector<std::int64_t>{3, 3, 3, 3, 3, 3});
        CHECK(decoder.inputs.size() == 6);
    }
    SUBCASE("every row starts from <bos> and is fed its own previous prediction") {
        REQUIRE(decoder.inputs.size() >= 3);
        CHECK(decoder.inputs[0] == std::vector<std::int64_t>{bos, bos, bos});
        CHECK(decoder.inputs[1] == std::vector<std::int64_t>{5, 6, 3});
        CHECK(decoder.inputs[2][0] == 4);
        CHECK(decoder.inputs[2][2] == 3);
    }
    SUBCASE("no step is taken once every row has finished") {
        ScriptedDecoder short_one{{{{bos, 5}, {5, eos}}, {{bos, eos}}}, {}};
        const auto result = attn::ch01::greedy_decode<double>(short_one.step(), 2, 10, bos, eos);
        CHECK(result[0] == std::vector<std::int64_t>{5});
        CHECK(result[1].empty());
        CHECK(short_one.inputs.size() == 2);   // call 1: 5 and eos; call 2: eos for row 0
    }
    SUBCASE("max_len 0 takes no step at all") {
        ScriptedDecoder idle{{{{bos, 5}}}, {}};
        CHECK(attn::ch01::greedy_decode<double>(idle.step(), 1, 0, bos, eos)[0].empty());
        CHECK(idle.inputs.empty());
    }
}
