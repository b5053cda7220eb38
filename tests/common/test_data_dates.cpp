// Dates: the calendar, the human formats, their uniqueness under the stated rules (checked
// by an independent parser written here from dates.hpp's rules), and the splits.
#include "common/data/dates.hpp"

#include "common/data/tokenize.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <unordered_map>

using namespace attn::data;

namespace {

const std::vector<std::string> english_months = {"january", "february", "march",     "april",   "may",      "june",
                                                 "july",    "august",   "september", "october", "november", "december"};
const std::vector<std::string> french_months = {"janvier", "février", "mars",      "avril",   "mai",      "juin",
                                                "juillet", "août",    "septembre", "octobre", "novembre", "décembre"};
// Sunday first, as Sakamoto's formula counts.
const std::vector<std::string> english_days = {"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"};
const std::vector<std::string> french_days = {"dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"};

// Tomohiko Sakamoto's weekday formula, independent of the library's day counting: 0 = Sunday.
int sakamoto_weekday(int y, int m, int d) {
    static const int offsets[12] = {0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4};
    y -= m < 3;
    return (y + y / 4 - y / 100 + y / 400 + offsets[m - 1] + d) % 7;
}

int index_of(const std::vector<std::string>& names, const std::string& word, std::size_t prefix) {
    for (std::size_t i = 0; i < names.size(); ++i)
        if (word == (prefix == 0 ? names[i] : names[i].substr(0, prefix))) return static_cast<int>(i);
    return -1;
}

int full_year(int year) { return year >= 100 ? year : year >= 50 ? 1900 + year : 2000 + year; }   // rule: 1950-2049

std::string iso(int y, int m, int d) {
    char text[40];   // room for any int, so the compiler can prove nothing is cut off
    std::snprintf(text, sizeof text, "%04d-%02d-%02d", y, m, d);
    return text;
}

// The pieces of `text` separated by any of `separators`.
std::vector<std::string> pieces(const std::string& text, const std::string& separators) {
    std::vector<std::string> out(1);
    for (char c : text) {
        if (separators.find(c) == std::string::npos) out.back() += c;
        else if (!out.back().empty()) out.emplace_back();
    }
    if (out.back().empty()) out.pop_back();
    return out;
}

// Words: names of months and weekdays, a 4-digit year, a day (perhaps "25th"); the rest ignored
// only if it is "the" or "of". Returns "" when the text does not follow the rules.
std::string parse_words(const std::string& text) {
    int year = -1, month = -1, day = -1, day_of_week = -1;
    for (std::string word : pieces(text, " ,")) {
        for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        const int month_index = std::max({index_of(english_months, word, 0), index_of(english_months, word, 3),
                                          index_of(french_months, word, 0)});
        const int day_index = std::max({index_of(english_days, word, 0), index_of(english_days, word, 3),
                                        index_of(french_days, word, 0)});
        if (month_index >= 0) month = month_index + 1;
        else if (day_index >= 0) day_of_week = day_index;
        else if (word.size() == 4 && word.find_first_not_of("0123456789") == std::string::npos) year = std::stoi(word);
        else if (std::isdigit(static_cast<unsigned char>(word[0]))) day = std::stoi(word);   // "25th" -> 25
        else if (word != "the" && word != "of") return "";
    }
    if (year < 0 || month < 0 || day < 0) return "";
    if (day_of_week >= 0 && day_of_week != sakamoto_weekday(year, month, day)) return "wrong weekday";
    return iso(year, month, day);
}

// The rules of dates.hpp, applied to one human-written date.
std::string parse_by_rules(const std::string& text) {
    if (text.find("年") != std::string::npos) {
        const std::vector<std::string> p = pieces(text, "\xE5\xB9\xB4\xE6\x9C\x88\x97\xA5");   // bytes of 年 月 日
        return iso(std::stoi(p[0]), std::stoi(p[1]), std::stoi(p[2]));
    }
    if (text.find('/') != std::string::npos) {   // month/day/year
        const std::vector<std::string> p = pieces(text, "/");
        return iso(full_year(std::stoi(p[2])), std::stoi(p[0]), std::stoi(p[1]));
    }
    if (text.find('.') != std::string::npos) {   // day.month.year
        const std::vector<std::string> p = pieces(text, ".");
        return iso(full_year(std::stoi(p[2])), std::stoi(p[1]), std::stoi(p[0]));
    }
    if (text.size() == 8 && text.find_first_not_of("0123456789") == std::string::npos)
        return iso(std::stoi(text.substr(0, 4)), std::stoi(text.substr(4, 2)), std::stoi(text.substr(6, 2)));
    return parse_words(text);
}

}  // namespace

TEST_CASE("data: the calendar counts days and weekdays right" * doctest::test_suite("common")) {
    CHECK(days_since_epoch(Date{1970, 1, 1}) == 0);
    CHECK(days_since_epoch(Date{2000, 3, 1}) == 11017);   // 30 years of 365 days + 7 leap days + 59
    // 100 years of 365 days, plus 25 leap days (1952, 1956, ..., 2048; 2000 is one)
    CHECK(last_date_day() - first_date_day() + 1 == 36525);
    CHECK(weekday(Date{2026, 11, 25}) == 2);   // a Wednesday
    CHECK(weekday(Date{1970, 1, 1}) == 3);     // a Thursday
    bool consistent = true;
    for (std::int64_t day = first_date_day(); day <= last_date_day(); ++day) {
        const Date date = date_from_days(day);
        consistent = consistent && days_since_epoch(date) == day &&
                     (weekday(date) + 1) % 7 == sakamoto_weekday(date.year, date.month, date.day);
    }
    CHECK(consistent);
    CHECK(iso_date(date_from_days(days_since_epoch(Date{2000, 2, 29}) + 1)) == "2000-03-01");
}

TEST_CASE("data: format_date writes the formats of the header" * doctest::test_suite("common")) {
    const Date date{2026, 11, 25};
    CHECK(format_date(date, 0) == "25 Nov 2026");
    CHECK(format_date(date, 4) == "Wednesday, November 25, 2026");
    CHECK(format_date(date, 6) == "11/25/26");
    CHECK(format_date(date, 8) == "25.11.2026");
    CHECK(format_date(date, 10) == "2026年11月25日");
    CHECK(format_date(date, 12) == "the 25th of November 2026");
    CHECK(format_date(date, 14) == "mercredi 25 novembre 2026");
    CHECK(format_date(Date{2026, 3, 7}, 7) == "03/07/2026");
    CHECK(format_date(Date{2023, 1, 22}, 12) == "the 22nd of January 2023");
    CHECK(format_date(Date{2013, 8, 11}, 12) == "the 11th of August 2013");
    CHECK(iso_date(date) == "2026-11-25");
    CHECK_THROWS_AS(format_date(date, n_date_formats), std::invalid_argument);
}

TEST_CASE("data: every human date names exactly one date under the rules" * doctest::test_suite("common")) {
    SUBCASE("no two date values share a human string, over all formats and all days") {
        std::unordered_map<std::string, std::int64_t> owner;
        std::size_t clashes = 0;
        for (std::int64_t day = first_date_day(); day <= last_date_day(); ++day)
            for (std::size_t format = 0; format < n_date_formats; ++format) {
                const auto [at, inserted] = owner.emplace(format_date(date_from_days(day), format), day);
                clashes += !inserted && at->second != day;
            }
        CHECK(clashes == 0);
    }
    SUBCASE("an independent parser of the rules reads every format back to the ISO date") {
        std::size_t wrong = 0;
        for (std::int64_t day = first_date_day(); day <= last_date_day(); day += 5) {   // every 5th day
            const Date date = date_from_days(day);
            for (std::size_t format = 0; format < n_date_formats; ++format) {
                const std::string human = format_date(date, format);
                if (parse_by_rules(human) != iso_date(date) && ++wrong <= 5)
                    MESSAGE(human << " -> " << parse_by_rules(human));
            }
        }
        CHECK(wrong == 0);
    }
}

TEST_CASE("data: the dates corpus keeps validation and test dates out of training" * doctest::test_suite("common")) {
    const SplitSizes sizes{3000, 200, 300};
    const Corpus corpus = make_dates_corpus(sizes, 42);
    REQUIRE(corpus.train.size() == 3000);
    REQUIRE(corpus.validation.size() == 200);
    REQUIRE(corpus.test.size() == 300);
    CHECK(corpus.level == TokenLevel::character);

    SUBCASE("sources are code points of a human date, targets the ISO date it names") {
        for (const Pair& pair : corpus.test) {
            REQUIRE(pair.target.size() == 10);
            CHECK(parse_by_rules(join_tokens(pair.source, "")) == join_tokens(pair.target, ""));
        }
    }
    SUBCASE("no validation or test date value occurs in training, and test and validation are disjoint") {
        std::set<std::string> train, validation;
        for (const Pair& pair : corpus.train) train.insert(join_tokens(pair.target, ""));
        for (const Pair& pair : corpus.validation) validation.insert(join_tokens(pair.target, ""));
        std::size_t leaks = 0;
        for (const Pair& pair : corpus.validation) leaks += train.count(join_tokens(pair.target, ""));
        for (const Pair& pair : corpus.test) {
            const std::string date = join_tokens(pair.target, "");
            leaks += train.count(date) + validation.count(date);
        }
        CHECK(leaks == 0);
        CHECK(validation.size() == 200);   // distinct dates
    }
    SUBCASE("the same seed gives the same corpus, another seed another") {
        const Corpus again = make_dates_corpus(sizes, 42);
        const Corpus other = make_dates_corpus(sizes, 43);
        CHECK(again.train.front().source == corpus.train.front().source);
        CHECK(again.test.back().source == corpus.test.back().source);
        std::size_t same = 0;
        for (std::size_t i = 0; i < corpus.test.size(); ++i) same += other.test[i].source == corpus.test[i].source;
        CHECK(same < 10);
    }
    SUBCASE("the test set does not depend on the training size; the formats are all used") {
        const Corpus bigger = make_dates_corpus(SplitSizes{5000, 200, 300}, 42);
        bool same_test = true;
        for (std::size_t i = 0; i < corpus.test.size(); ++i)
            same_test = same_test && bigger.test[i].source == corpus.test[i].source;
        CHECK(same_test);
        std::set<std::size_t> lengths;
        for (const Pair& pair : corpus.train) lengths.insert(pair.source.size());
        CHECK(lengths.size() >= 10);   // short "3/7/26" to long "Wednesday, September 30, 2026"
    }
    CHECK_THROWS_AS(make_dates_corpus(SplitSizes{10, 20000, 20000}, 1), std::invalid_argument);
}
