// Self-checks for exercise 01.3: greedy_decode (exercises/01_encoder_decoder/greedy_decode.cpp).
#include "chapters/01_encoder_decoder/greedy_decode.hpp"
#include "tests/support/print_tokens.hpp"
#include "tests/support/property.hpp"

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
    // The hand-worked properties first, each named after the mistake that breaks it
    // (tests/mutants/01_encoder_decoder/greedy_decode.*).
    // Row 0: bos -> 5 -> 4 -> eos.   Row 1: bos -> 6 -> eos.   Row 2: bos -> 3 -> 3 -> 3 ... (never ends)
    ScriptedDecoder decoder{{{{bos, 5}, {5, 4}, {4, eos}}, {{bos, 6}, {6, eos}}, {{bos, 3}, {3, 3}}}, {}};
    const auto decode = [&] {
        const std::vector<std::vector<std::int64_t>> out = attn::ch01::greedy_decode<double>(decoder.step(), 3, 6, bos, eos);
        REQUIRE(out.size() == 3);
        return out;
    };

    PROPERTY("each step takes the most likely token (argmax, not argmin): the first tokens are 5, 6, 3") {
        const auto out = decode();
        for (std::size_t b = 0; b < 3; ++b) {
            CAPTURE(b);
            REQUIRE(!out[b].empty());
        }
        CHECK(out[0][0] == 5);
        CHECK(out[1][0] == 6);
        CHECK(out[2][0] == 3);
    };
    PROPERTY("one row's <eos> does not stop the others: a row that never says <eos> runs to max_len tokens") {
        const auto out = decode();
        CHECK(out[2] == std::vector<std::int64_t>{3, 3, 3, 3, 3, 3});
        CHECK(decoder.inputs.size() == 6);
    };
    PROPERTY("every row starts from <bos> and is then fed its own previous prediction") {
        (void)decode();
        REQUIRE(decoder.inputs.size() >= 3);
        CHECK(decoder.inputs[0] == std::vector<std::int64_t>{bos, bos, bos});
        CHECK(decoder.inputs[1] == std::vector<std::int64_t>{5, 6, 3});
        CHECK(decoder.inputs[2][0] == 4);
        CHECK(decoder.inputs[2][2] == 3);
    };
    PROPERTY("a row stops at its <eos>, which is not kept: rows 0 and 1 give [5, 4] and [6]") {
        const auto out = decode();
        CHECK(out[0] == std::vector<std::int64_t>{5, 4});
        CHECK(out[1] == std::vector<std::int64_t>{6});
    };
    PROPERTY("no step is taken once every row has finished") {
        ScriptedDecoder short_one{{{{bos, 5}, {5, eos}}, {{bos, eos}}}, {}};
        const auto result = attn::ch01::greedy_decode<double>(short_one.step(), 2, 10, bos, eos);
        REQUIRE(result.size() == 2);
        CHECK(result[0] == std::vector<std::int64_t>{5});
        CHECK(result[1].empty());
        CHECK(short_one.inputs.size() == 2);   // call 1: 5 and eos; call 2: eos for row 0
    };
    PROPERTY("max_len 0 takes no step at all") {
        ScriptedDecoder idle{{{{bos, 5}}}, {}};
        const auto result = attn::ch01::greedy_decode<double>(idle.step(), 1, 0, bos, eos);
        REQUIRE(result.size() == 1);
        CHECK(result[0].empty());
        CHECK(idle.inputs.empty());
    };
}
