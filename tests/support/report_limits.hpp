// How much of a failing property the "course" reporter (doctest_main.cpp) shows, so that a
// check that writes a long message can fit it: `./course check` prints at most
// max_detail_lines lines per property, the "check:" line included, and "..." after them
// (all of them with `./course check N --verbose`, which sets COURSE_CHECK_VERBOSE=1). Long
// lines are kept whole up to max_line_width; ./course wraps them at the terminal's width.
#pragma once
#include <cstddef>

namespace support {

constexpr std::size_t max_detail_lines = 8;   // per property
constexpr std::size_t max_line_width = 2000;  // a runaway message, not a long one

}  // namespace support
