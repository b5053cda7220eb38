// The end of every run: the numbers the lesson talks about, each printed beside the range a
// correct implementation reaches, and written to summary.json so later chapters and scripts
// can compare runs (docs/design.md, "Where runs go"). Introduced in chapter 00.
#pragma once
#include "common/cli.hpp"
#include "common/report.hpp"

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
    // A result the course gives no range for in any settings (a size, a count, a study's
    // number): printed as "shown, not judged" and recorded with "expected_min"/"expected_max"/
    // "in_range" null.
    void metric(const std::string& key, const std::string& label, double value);
    // A result that has a range at the course's measured settings but not at this run's
    // (add_metric): printed as "no reference range for these settings", recorded like the above
    // plus "other_settings_ranged": true, so the report says the same.
    void metric_unranged_here(const std::string& key, const std::string& label, double value);
    // A timing or a number fitted to timings: it moves with the machine's load, so it is shown
    // and recorded like a result without a range, and never judged.
    void timing(const std::string& key, const std::string& label, double value);

    // For the report of the run (report.hpp): a figure the run saved (what plot::save or
    // save_and_report returned), shown in the page...
    void figure(const plot::Files& files);
    // ...and attention weights for its explorer: the very map or grid that was plotted, with
    // what it shows. A grid's panel k is head k + 1 (of several layers: see
    // AttentionLabel::heads_per_layer). Example, for an encoder's layer 2:
    //   summary.attention(grid, {"test sentence 1", "encoder self", 2});
    void attention(const plot::Heatmap& map, const report::AttentionLabel& label);
    void attention(const plot::HeatmapGrid& grid, const report::AttentionLabel& label);

    // Prints the block of results to stdout and writes DIR/summary.json and DIR/report.html,
    // each atomically, after removing the old report.html and the figures of earlier runs
    // that this process did not draw (plot::remove_earlier_figures), then prints where both
    // are; returns the path of summary.json. All metrics in range ->
    // "all_in_range": true. In a --mine run the page also shows the reference run's numbers
    // when its summary.json exists.
    std::filesystem::path finish(const std::filesystem::path& dir, double seconds);

    bool all_in_range() const;

private:
    struct Setting { std::string key, text; bool is_number; };
    struct Metric {
        std::string key, label;
        double value, lo, hi;
        bool ranged;
        bool timing = false;
        bool unranged_here = false;
        bool ok() const { return !ranged || (value >= lo && value <= hi); }
    };
    std::string chapter_;
    bool mine_;
    // The settings in which the reference run of `reference` (a summary.json) differs from this
    // run, as "steps 3000 against 300 here, quick false against true here"; empty when none do.
    std::string settings_that_differ(const std::filesystem::path& reference) const;
    std::vector<Setting> settings_;
    std::vector<Metric> metrics_;
    std::vector<plot::Files> figures_;
    std::vector<report::AttentionRecord> attention_;
};

// One row of a chapter's table of expected results: where `metric` lands for a correct
// implementation run at the course's default `settings`, measured over several seeds, and
// what an untrained model scores there. The range starts above the untrained value, so a
// model that learned nothing is never reported as correct.
struct ExpectedRange {
    std::string metric;     // a summary key: "test_bleu"
    std::string settings;   // the run: "translation", "translation --quick", "dates", ...
    double lo, hi;
    double untrained;
};
using RangeTable = std::vector<ExpectedRange>;
using Ranges = std::map<std::string, ExpectedRange>;   // metric -> its row, for one run's settings

// The rows of `table` for `settings`, by metric.
Ranges rows_for(const RangeTable& table, const std::string& settings);
// The table in markdown, for the lessons: | metric | settings | range | untrained model |
std::string ranges_markdown(const RangeTable& table);
// The command line of a chapter with one table of expected results: binds --ranges after
// the flags already bound (add_standard_flags and the chapter's own), parses, and fills in
// the standard settings (finish_standard_flags). Returns false when the program should stop
// at once: after --help, or after printing the table for --ranges.
bool parse_chapter_flags(CommandLine& cli, RunSettings& run, int argc, char** argv, const std::string& chapter_dir,
                         const RangeTable& ranges, int default_steps, int quick_steps);
// Adds a metric to the summary with its range if `ranges` has one, without otherwise.
void add_metric(Summary& summary, const Ranges& ranges, const std::string& key, const std::string& label, double value);

// A summary.json read back: every top-level setting ("task" -> "dates") and every metric's
// value ("test_bleu" -> "0.93"), as text. Asking for a key the file lacks, or one recorded
// as null, throws a one-line InputError naming the file and the key: a later chapter never
// mistakes a missing number for 0. (Not a general JSON parser: it reads this format only.)
class SavedSummary {
public:
    // Throws InputError naming the file if it cannot be read.
    explicit SavedSummary(const std::filesystem::path& path);

    bool has(const std::string& key) const;            // present and not null
    const std::string& text(const std::string& key) const;
    double number(const std::string& key) const;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
    std::map<std::string, std::string> values_;        // null is kept as "null"
};

// The course's folder (the one holding the `course` script and chapters/): found from the
// working directory upwards, else from the running program's location, else ".". Saved runs
// are looked up from here, so a chapter finds an earlier chapter's run wherever it is started.
std::filesystem::path course_root();
// out/NN_topic, or out/mine/NN_topic for the learner's code, under the course's folder and
// written relative to the working directory ("out/01_encoder_decoder" when run from the root).
std::filesystem::path default_out_dir(const std::string& chapter_dir, bool mine);

// JSON text for a string (quotes and escapes) and for a number (null if not finite).
std::string json_string(const std::string& text);
std::string json_number(double value);

}  // namespace attn
