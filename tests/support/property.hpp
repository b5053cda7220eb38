// PROPERTY("what must hold") { ... };  a doctest SUBCASE after which the next one always runs.
//
// doctest 2.4 stops a whole test case when an exception leaves a SUBCASE (a failed REQUIRE
// throws one too): the properties after it never run, and the learner sees one failure
// instead of the list. Here the body runs inside a lambda; an exception it throws becomes a
// failed check of that property, reported at the PROPERTY line, and doctest moves on.
#pragma once
#include <doctest/doctest.h>

#include <cstddef>
#include <exception>
#include <string>
#include <vector>

namespace support {

struct PropertyBody {
    const char* file;
    int line;

    template <class Body>
    void operator<<(Body&& body) const {
        try {
            body();
        } catch (const doctest::detail::TestFailureException&) {
            // a REQUIRE failed, and doctest has already reported it
        } catch (const std::exception& e) {
            ADD_FAIL_CHECK_AT(file, line, "threw: " << std::string(e.what()));
        } catch (...) {
            ADD_FAIL_CHECK_AT(file, line, "threw something that is not a std::exception");
        }
    }
};

// "(2, 3, 4)": doctest cannot print a shape by itself.
template <class Shape>
std::string shape_text(const Shape& shape) {
    std::string text = "(";
    for (std::size_t d : shape) text += (text.size() > 1 ? ", " : "") + std::to_string(d);
    return text + ")";
}

}  // namespace support

#define PROPERTY(name) SUBCASE(name) ::support::PropertyBody{__FILE__, __LINE__} << [&]()

// REQUIRE_SHAPE(y.shape(), {2, 3, 4}): ends the property unless the shapes match, saying both.
#define REQUIRE_SHAPE(actual, ...)                                                                  \
    do {                                                                                            \
        const auto& actual_shape_ = (actual);                                                       \
        const std::vector<std::size_t> expected_shape_ = __VA_ARGS__;                               \
        const bool shape_matches_ =                                                                 \
            std::vector<std::size_t>(actual_shape_.begin(), actual_shape_.end()) == expected_shape_; \
        REQUIRE_MESSAGE(shape_matches_, "the shape is " << ::support::shape_text(actual_shape_)     \
                                                        << ", expected " << ::support::shape_text(expected_shape_)); \
    } while (false)
