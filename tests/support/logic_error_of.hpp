// The message of the std::logic_error a piece of code throws: for tests of the tape's refusals
// (a freed graph, a value written in place), which check what the message says.
#pragma once
#include <functional>
#include <stdexcept>
#include <string>

namespace support {

// "" if f throws none.
inline std::string logic_error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::logic_error& e) {
        return e.what();
    }
    return "";
}

}  // namespace support
