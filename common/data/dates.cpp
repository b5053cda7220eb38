// Date normalisation data (see dates.hpp for the formats and the rules that make them
// unambiguous). Introduced in chapter 01.
#include "common/data/dates.hpp"

#include "common/data/tokenize.hpp"
#include "common/random.hpp"

#include <stdexcept>

namespace attn::data {
namespace {

const char* const month_names[12] = {"January", "February", "March",     "April",   "May",      "June",
                                     "July",    "August",   "September", "October", "November", "December"};
const char* const french_months[12] = {"janvier", "février", "mars",      "avril",   "mai",      "juin",
                                       "juillet", "août",    "septembre", "octobre", "novembre", "décembre"};
const char* const weekday_names[7] = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};
const char* const french_weekdays[7] = {"lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"};

// `value` with at least `width` digits, zero-padded ("07").
std::string padded(int value, int width) {
    std::string digits = std::to_string(value);
    while (static_cast<int>(digits.size()) < width) digits = "0" + digits;
    return digits;
}

std::string abbreviation(int month) { return std::string(month_names[month - 1]).substr(0, 3); }

// 1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, ... 21st, 22nd, 23rd, ... 31st
std::string ordinal(int day) {
    const int last = day % 10;
    const bool teen = day / 10 == 1;
    const char* suffix = teen ? "th" : last == 1 ? "st" : last == 2 ? "nd" : last == 3 ? "rd" : "th";
    return std::to_string(day) + suffix;
}

}  // namespace

// Howard Hinnant's days_from_civil: count days in 400-year eras that start on March 1st,
// so the leap day is the last day of its year.
std::int64_t days_since_epoch(const Date& date) {
    const std::int64_t y = date.year - (date.month <= 2 ? 1 : 0);
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const std::int64_t year_of_era = y - era * 400;                                      // [0, 399]
    const std::int64_t day_of_year = (153 * (date.month + (date.month > 2 ? -3 : 9)) + 2) / 5 + date.day - 1;
    const std::int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    return era * 146097 + day_of_era - 719468;   // 719468 days from 0000-03-01 to 1970-01-01
}

// Hinnant's civil_from_days, the inverse of the above.
Date date_from_days(std::int64_t days) {
    const std::int64_t z = days + 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const std::int64_t day_of_era = z - era * 146097;                                             // [0, 146096]
    const std::int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
    const std::int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    const std::int64_t mp = (5 * day_of_year + 2) / 153;                                          // March = 0
    const int day = static_cast<int>(day_of_year - (153 * mp + 2) / 5 + 1);
    const int month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    const int year = static_cast<int>(year_of_era + era * 400 + (month <= 2 ? 1 : 0));
    return Date{year, month, day};
}

int weekday(const Date& date) {
    const std::int64_t days = days_since_epoch(date);
    return static_cast<int>(((days + 3) % 7 + 7) % 7);   // 1970-01-01 was a Thursday (3)
}

std::int64_t first_date_day() { return days_since_epoch(Date{1950, 1, 1}); }
std::int64_t last_date_day() { return days_since_epoch(Date{2049, 12, 31}); }

std::string iso_date(const Date& date) {
    return padded(date.year, 4) + "-" + padded(date.month, 2) + "-" + padded(date.day, 2);
}

std::string format_date(const Date& date, std::size_t format) {
    const std::string d = std::to_string(date.day), m = std::to_string(date.month);
    const std::string dd = padded(date.day, 2), mm = padded(date.month, 2);
    const std::string yyyy = padded(date.year, 4), yy = padded(date.year % 100, 2);
    const std::string month = month_names[date.month - 1], mon = abbreviation(date.month);
    const std::string day_name = weekday_names[weekday(date)];
    switch (format) {
        case 0: return d + " " + mon + " " + yyyy;
        case 1: return d + " " + month + " " + yyyy;
        case 2: return month + " " + d + ", " + yyyy;
        case 3: return mon + " " + d + ", " + yyyy;
        case 4: return day_name + ", " + month + " " + d + ", " + yyyy;
        case 5: return day_name.substr(0, 3) + ", " + d + " " + mon + " " + yyyy;
        case 6: return m + "/" + d + "/" + yy;
        case 7: return mm + "/" + dd + "/" + yyyy;
        case 8: return dd + "." + mm + "." + yyyy;
        case 9: return dd + "." + mm + "." + yy;
        case 10: return yyyy + "年" + m + "月" + d + "日";
        case 11: return yyyy + mm + dd;
        case 12: return "the " + ordinal(date.day) + " of " + month + " " + yyyy;
        case 13: return to_lower(mon) + " " + d + " " + yyyy;
        case 14:
            return std::string(french_weekdays[weekday(date)]) + " " + d + " " + french_months[date.month - 1] + " " + yyyy;
        case 15: return day_name + " " + d + " " + month + " " + yyyy;
        default: throw std::invalid_argument("format_date: format " + std::to_string(format) + " is not in 0.." +
                                             std::to_string(n_date_formats - 1));
    }
}

namespace {

// One pair per day in `days`, each in a format drawn from `rng`.
std::vector<Pair> date_pairs(const std::vector<std::int64_t>& days, Rng& rng) {
    std::vector<Pair> pairs;
    pairs.reserve(days.size());
    for (std::int64_t day : days) {
        const Date date = date_from_days(day);
        const std::string human = format_date(date, rng.below(n_date_formats));
        pairs.push_back(Pair{split_code_points(human), split_code_points(iso_date(date))});
    }
    return pairs;
}

}  // namespace

Corpus make_dates_corpus(const SplitSizes& sizes, std::uint64_t seed) {
    const std::size_t n_days = static_cast<std::size_t>(last_date_day() - first_date_day() + 1);   // 36 525
    if (sizes.validation + sizes.test >= n_days)
        throw std::invalid_argument("make_dates_corpus: validation + test must leave days for training (there are " +
                                    std::to_string(n_days) + ")");
    Rng rng(seed);
    const std::vector<std::size_t> order = rng.permutation(n_days);
    std::vector<std::int64_t> test_days, validation_days, train_days;
    for (std::size_t i = 0; i < sizes.test; ++i) test_days.push_back(first_date_day() + order[i]);
    for (std::size_t i = sizes.test; i < sizes.test + sizes.validation; ++i)
        validation_days.push_back(first_date_day() + order[i]);
    const std::size_t n_pool = n_days - sizes.test - sizes.validation;
    for (std::size_t i = 0; i < sizes.train; ++i)
        train_days.push_back(first_date_day() + order[sizes.test + sizes.validation + i % n_pool]);
    Corpus corpus;
    corpus.level = TokenLevel::character;
    corpus.test = date_pairs(test_days, rng);   // test first, so it depends on the seed and its size only
    corpus.validation = date_pairs(validation_days, rng);
    corpus.train = date_pairs(train_days, rng);
    corpus.description = "dates 1950-01-01..2049-12-31 in " + std::to_string(n_date_formats) +
                         " human formats -> ISO, character level; " + std::to_string(sizes.train) + " train / " +
                         std::to_string(sizes.validation) + " validation / " + std::to_string(sizes.test) +
                         " test, validation and test dates never in training";
    return corpus;
}

}  // namespace attn::data
