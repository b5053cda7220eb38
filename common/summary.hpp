// The end of every run: the numbers the lesson talks about, each printed beside the range a
// correct implementation reaches, and written to summary.json so later chapters and scripts
// can compare runs (docs/design.md, "Where runs go"). Introduced in chapter 00.
#pragma once
#include "common/cli.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace attn {

class Summary {
public:
    Summary(std::string chapter, const RunSettings& settings);

    // Settings and facts of the run (task, sizes, time): recorded, printed without a range.
    void setting(const std::string& key, const std::string& value);
    void setting(const std::string& key, double value);

    // A result, printed as "label  value   (a correct implementation: lo to hi)" with a mark
    // saying whether it is inside. Recorded as {"value", "expected_min", "expected_max", "in_range"}.
    void metric(const std::string& key, const std::string& label, double value, double lo, double hi);
    // A result with no reference range (e.g. settings the course has not measured): printed
    // and recorded with "expected_min"/"expected_max"/"in_range" null.
    void metric(const std::string& key, const std::string& label, double value);

    // Prints the block of results to stdout and writes DIR/summary.json atomically;
    // returns the path written. All metrics in range -> "all_in_range": true.
    std::filesystem::path finish(const std::filesystem::path& dir, double seconds);

    bool all_in_range() const;

private:
    struct Setting { std::string key, text; bool is_number; };
    struct Metric {
        std::string key, label;
        double value, lo, hi;
        bool ranged;
        bool ok() const { return !ranged || (value >= lo && value <= hi); }
    };
    std::string chapter_;
    std::vector<Setting> settings_;
    std::vector<Metric> metrics_;
};

// Reads back what Summary::finish wrote: every top-level setting ("task" -> "dates") and
// every metric's value ("test_bleu" -> "0.93"), as text. Throws std::runtime_error naming
// the file if it cannot be read. (Not a general JSON parser: it reads this format only.)
std::map<std::string, std::string> read_summary(const std::filesystem::path& path);

// JSON text for a string (quotes and escapes) and for a number (null if not finite).
std::string json_string(const std::string& text);
std::string json_number(double value);

}  // namespace attn
