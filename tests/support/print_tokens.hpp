// Lets doctest print token sequences: CHECK(tokens == Tokens{2, 1}) then shows
// "{ 3, 1 } == { 2, 1 }" on failure instead of "{?} == {?}".
#pragma once
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace doctest {

template <>
struct StringMaker<std::vector<std::int64_t>> {
    static String convert(const std::vector<std::int64_t>& tokens) {
        std::string text = "{";
        for (std::size_t i = 0; i < tokens.size(); ++i) text += (i == 0 ? " " : ", ") + std::to_string(tokens[i]);
        return (text + " }").c_str();
    }
};

}  // namespace doctest
