// The chapters' "a correct implementation" ranges against a sweep of many seeds (docs/ranges.md):
// every quick run of the reference code in tests/data/ranges/quick_sweep.tsv must land inside
// the range of its row, or a learner with correct code and that seed would be told it is wrong.
#include "chapters/01_encoder_decoder/expected_ranges.hpp"
#include "chapters/02_bahdanau_attention/expected_ranges.hpp"
#include "chapters/03_queries_keys_values/expected_ranges.hpp"
#include "chapters/04_self_attention/expected_ranges.hpp"
#include "chapters/05_multi_head_attention/expected_ranges.hpp"
#include "chapters/06_positional_encoding/expected_ranges.hpp"
#include "chapters/07_transformer/expected_ranges.hpp"
#include "chapters/08_attention_at_scale/expected_ranges.hpp"
#include "common/files.hpp"
#include "course_paths.hpp"

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

const std::map<std::string, const attn::RangeTable*>& tables() {
    static const std::map<std::string, const attn::RangeTable*> by_chapter = {
        {"ch01", &attn::ch01::expected_ranges()},
        {"ch02", &attn::ch02::expected_ranges()}, {"ch03", &attn::ch03::expected_ranges()},
        {"ch04", &attn::ch04::expected_ranges()}, {"ch05", &attn::ch05::expected_ranges()},
        {"ch06", &attn::ch06::expected_ranges()}, {"ch07", &attn::ch07::expected_ranges()},
        {"ch08", &attn::ch08::expected_ranges()}};
    return by_chapter;
}

const attn::ExpectedRange* row_of(const std::string& chapter, const std::string& settings, const std::string& metric) {
    const auto table = tables().find(chapter);
    if (table == tables().end()) return nullptr;
    for (const attn::ExpectedRange& row : *table->second)
        if (row.settings == settings && row.metric == metric) return &row;
    return nullptr;
}

// Checks every run of a sweep file against its row; returns the seeds of each row ("ch05 partners
// accuracy_1_head") and counts the values checked.
std::map<std::string, std::set<std::string>> check_sweep(const std::string& file, std::size_t& checked) {
    std::istringstream lines(attn::read_text(std::string(COURSE_TEST_DATA_DIR) + "/ranges/" + file));
    std::map<std::string, std::set<std::string>> seeds_per_row;
    for (std::string line; std::getline(lines, line);) {
        if (line.empty() || line[0] == '#' || line.rfind("chapter\t", 0) == 0) continue;
        std::istringstream fields(line);
        std::string chapter, settings, metric, seed, value;
        std::getline(fields, chapter, '\t');
        std::getline(fields, settings, '\t');
        std::getline(fields, metric, '\t');
        std::getline(fields, seed, '\t');
        std::getline(fields, value, '\t');
        const attn::ExpectedRange* row = row_of(chapter, settings, metric);
        CAPTURE(line);
        REQUIRE_MESSAGE(row != nullptr, "no row '" << metric << "' for '" << settings << "' in " << chapter
                                                   << "'s expected_ranges.hpp");
        const double number = std::stod(value);
        CHECK_MESSAGE((number >= row->lo && number <= row->hi), chapter << " " << settings << " " << metric << ", seed "
                                                                       << seed << ": " << number << " is outside "
                                                                       << row->lo << " to " << row->hi);
        seeds_per_row[chapter + " " + settings + " " + metric].insert(seed);
        ++checked;
    }
    return seeds_per_row;
}

}  // namespace

TEST_CASE("ranges: every quick run of the seed sweep lands inside its chapter's range" * doctest::test_suite("common")) {
    std::size_t checked = 0;
    const std::map<std::string, std::set<std::string>> seeds_per_row = check_sweep("quick_sweep.tsv", checked);
    CHECK(checked > 700);
    for (const auto& [row, seeds] : seeds_per_row) {
        CAPTURE(row);
        CHECK(seeds.size() >= 30);   // the sweep of docs/ranges.md, not a handful of seeds
    }
    // And every --quick row of every table comes from the sweep.
    for (const auto& [chapter, table] : tables())
        for (const attn::ExpectedRange& row : *table) {
            const std::string name = chapter + " " + row.settings + " " + row.metric;
            const bool quick = row.settings.size() >= 7 && row.settings.compare(row.settings.size() - 7, 7, "--quick") == 0;
            if (quick) CHECK_MESSAGE(seeds_per_row.count(name) == 1, name << " has no runs in quick_sweep.tsv");
        }
}

TEST_CASE("ranges: the runs at default settings with other seeds land inside their ranges" * doctest::test_suite("common")) {
    std::size_t checked = 0;
    const std::map<std::string, std::set<std::string>> seeds_per_row = check_sweep("default_sweep.tsv", checked);
    CHECK(checked > 100);
    for (const auto& [row, seeds] : seeds_per_row) {
        CAPTURE(row);
        CHECK(seeds.size() >= 10);
    }
}
