// Date normalisation data: human-written dates in 16 formats -> ISO "YYYY-MM-DD", at the
// character level. Short sequences whose alignments are easy to read. Introduced in chapter 01.
//
// The rules that make every human string name exactly one date:
//   - dates run from 1950-01-01 to 2049-12-31, so a two-digit year yy means 19yy when
//     yy >= 50 and 20yy when yy < 50;
//   - slashes are month/day/year (US order), dots day.month.year (European order),
//     eight digits are yyyymmdd, and 年 月 日 follow year, month, day;
//   - month and weekday names are English, or French in format 14; a weekday is always the
//     true weekday of the date, so it adds no information.
#pragma once
#include "common/data/corpus.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace attn::data {

struct Date {
    int year = 1970;
    int month = 1;   // 1..12
    int day = 1;     // 1..31
};

// Days since 1970-01-01 (negative before it) and back, in the proleptic Gregorian calendar.
std::int64_t days_since_epoch(const Date& date);
Date date_from_days(std::int64_t days);
int weekday(const Date& date);   // 0 = Monday .. 6 = Sunday

// The range every data set draws from: 1950-01-01 .. 2049-12-31, both included.
std::int64_t first_date_day();
std::int64_t last_date_day();

// "2026-11-25"
std::string iso_date(const Date& date);

// The human formats, shown for Wednesday 2026-11-25 (and for 2026-03-07 where padding matters):
//    0 "25 Nov 2026"                    8 "25.11.2026"      "07.03.2026"
//    1 "25 November 2026"               9 "25.11.26"        "07.03.26"
//    2 "November 25, 2026"             10 "2026年11月25日"  "2026年3月7日"
//    3 "Nov 25, 2026"                  11 "20261125"        "20260307"
//    4 "Wednesday, November 25, 2026"  12 "the 25th of November 2026"  ("1st", "2nd", "23rd")
//    5 "Wed, 25 Nov 2026"              13 "nov 25 2026"
//    6 "11/25/26"       "3/7/26"       14 "mercredi 25 novembre 2026"
//    7 "11/25/2026"     "03/07/2026"   15 "Wednesday 25 November 2026"
constexpr std::size_t n_date_formats = 16;
// Throws std::invalid_argument if format >= n_date_formats.
std::string format_date(const Date& date, std::size_t format);

// The default sizes the chapters use: 20 000 train, 1 000 validation, 1 000 test.
constexpr SplitSizes dates_default_sizes{20000, 1000, 1000};

// Pairs (human date, ISO date), both split into code points. The days of the range are
// shuffled once: the first `sizes.test` become the test dates, the next `sizes.validation`
// the validation dates, and training draws only from the rest (so validation and test date
// values never occur in training, in any format). Training takes the remaining days in
// shuffled order (cycling if it asks for more); each pair gets a random format. The test set
// depends only on the seed and sizes.test. Deterministic for a seed.
Corpus make_dates_corpus(const SplitSizes& sizes, std::uint64_t seed);

}  // namespace attn::data
