// The run summary and summary.json (see summary.hpp). Introduced in chapter 00.
#include "common/summary.hpp"

#include "common/files.hpp"
#include "common/output_claim.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <regex>
#include <set>
#include <sstream>

namespace attn {

namespace {

// The length of the well-formed UTF-8 character starting at text[at], or 0 if it is not one.
std::size_t utf8_length(const std::string& text, std::size_t at) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(at);
    const std::size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
    if (length == 0 || at + length > text.size()) return 0;
    for (std::size_t i = 1; i < length; ++i)
        if ((byte(at + i) >> 6) != 0x2) return 0;
    return length;
}

}  // namespace

std::string json_string(const std::string& text) {
    std::string quoted = "\"";
    for (std::size_t at = 0; at < text.size();) {
        const char c = text[at];
        const std::size_t length = utf8_length(text, at);
        if (length == 0) {   // not UTF-8 (a file name in another encoding): JSON allows only UTF-8
            quoted += "\\ufffd";
            ++at;
            continue;
        }
        if (length > 1) {
            quoted += text.substr(at, length);   // UTF-8 passes through unchanged
            at += length;
            continue;
        }
        switch (c) {
            case '"': quoted += "\\\""; break;
            case '\\': quoted += "\\\\"; break;
            case '\n': quoted += "\\n"; break;
            case '\t': quoted += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char escaped[8];
                    std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
                    quoted += escaped;
                } else {
                    quoted += c;
                }
        }
        ++at;
    }
    return quoted + "\"";
}

std::string json_number(double value) {
    if (!std::isfinite(value)) return "null";
    char text[40];
    std::snprintf(text, sizeof text, "%.10g", value);
    return text;
}

Summary::Summary(std::string chapter, const RunSettings& settings)
    : chapter_(std::move(chapter)), mine_(settings.variant == "mine") {
    setting("variant", settings.variant);
    settings_.push_back({"seed", std::to_string(settings.seed), true});   // every digit (json_number keeps 9)
    setting("steps", settings.steps);
    setting("quick", settings.quick ? "true" : "false");
    if (mine_ && !reference_stand_ins().empty()) setting("reference_stand_ins", reference_stand_ins());
}

void Summary::setting(const std::string& key, const std::string& value) {
    settings_.push_back({key, value, false});
}

void Summary::setting(const std::string& key, double value) {
    settings_.push_back({key, json_number(value), true});
}

void Summary::metric(const std::string& key, const std::string& label, double value, double lo, double hi) {
    metrics_.push_back({key, label, value, lo, hi, true});
}

void Summary::metric(const std::string& key, const std::string& label, double value) {
    metrics_.push_back({key, label, value, 0.0, 0.0, false});
}

void Summary::metric_unranged_here(const std::string& key, const std::string& label, double value) {
    metrics_.push_back({key, label, value, 0.0, 0.0, false, false, true});
}

void Summary::timing(const std::string& key, const std::string& label, double value) {
    metrics_.push_back({key, label, value, 0.0, 0.0, false, true});
}

void Summary::figure(const plot::Files& files) { figures_.push_back(files); }

void Summary::attention(const plot::Heatmap& map, const report::AttentionLabel& label) {
    for (report::AttentionRecord& record : report::records_of(map, label)) attention_.push_back(std::move(record));
}

void Summary::attention(const plot::HeatmapGrid& grid, const report::AttentionLabel& label) {
    for (report::AttentionRecord& record : report::records_of(grid, label)) attention_.push_back(std::move(record));
}

bool Summary::all_in_range() const {
    for (const Metric& m : metrics_)
        if (!m.ok()) return false;
    return true;
}

std::string Summary::settings_that_differ(const std::filesystem::path& reference) const {
    std::string differ;
    try {
        const SavedSummary other(reference);
        // What the flags set (the rest of a summary's keys are results and timings, which differ).
        static const std::set<std::string> flags = {
            "quick", "steps", "seed", "task", "data", "batch", "embedding", "hidden", "lr", "lr_end", "heads", "layers",
            "feed_forward", "warmup", "label_smoothing", "norm", "score", "width", "points", "conv_channels",
            "embedding_init", "beam", "trials", "loaded"};
        for (const Setting& s : settings_) {
            if (!flags.count(s.key)) continue;
            const std::string theirs = other.has(s.key) ? other.text(s.key) : std::string("none");
            const bool bare = s.is_number || s.text == "true" || s.text == "false";   // a string is kept escaped
            const std::string quoted = json_string(s.text);
            const std::string ours = bare ? s.text : quoted.substr(1, quoted.size() - 2);
            if (theirs != ours) differ += (differ.empty() ? "" : ", ") + s.key + " " + theirs + " against " + s.text + " here";
        }
    } catch (const std::exception&) {
        return "its summary.json cannot be read";
    }
    return differ;
}

std::filesystem::path Summary::finish(const std::filesystem::path& dir, double seconds) {
    setting("seconds", seconds);
    std::cout << "\nSummary (" << chapter_ << ")\n";
    if (mine_ && !reference_stand_ins().empty())
        std::cout << "  (the reference code stood in for your exercises " << reference_stand_ins()
                  << ", still stubs)\n";
    // One column for the values: every label padded to the widest (in characters, not bytes).
    const auto glyphs = [](const std::string& text) {
        std::size_t count = 0;
        for (const unsigned char c : text) count += (c & 0xC0) != 0x80;
        return count;
    };
    std::size_t width = 0;
    for (const Metric& m : metrics_) width = std::max(width, glyphs(m.label));
    for (const Metric& m : metrics_) {
        const std::string label = m.label + std::string(width - glyphs(m.label), ' ');
        char line[160];
        if (m.ranged)
            std::snprintf(line, sizeof line, " %10.4g  %s (a correct implementation: %.6g to %.6g)\n", m.value,
                          m.ok() ? "ok " : "OUT", m.lo, m.hi);
        else if (m.timing)
            std::snprintf(line, sizeof line, " %10.4g      (a timing: shown, not judged; it moves with the machine's load)\n", m.value);
        else if (m.unranged_here)
            std::snprintf(line, sizeof line, " %10.4g      (no reference range for these settings)\n", m.value);
        else
            std::snprintf(line, sizeof line, " %10.4g      (shown, not judged)\n", m.value);
        std::cout << "  " << label << line;
    }

    std::ostringstream json;
    json << "{\n  \"chapter\": " << json_string(chapter_);
    for (const Setting& s : settings_)
        json << ",\n  " << json_string(s.key) << ": "
             << (s.is_number || s.text == "true" || s.text == "false" ? s.text : json_string(s.text));
    json << ",\n  \"metrics\": {";
    for (std::size_t i = 0; i < metrics_.size(); ++i) {
        const Metric& m = metrics_[i];
        const std::string in_range = !m.ranged ? "null" : m.ok() ? "true" : "false";
        json << (i ? "," : "") << "\n    " << json_string(m.key) << ": {\"value\": " << json_number(m.value)
             << ", \"expected_min\": " << (m.ranged ? json_number(m.lo) : "null")
             << ", \"expected_max\": " << (m.ranged ? json_number(m.hi) : "null") << ", \"in_range\": " << in_range
             << (m.timing ? ", \"timing\": true" : "") << (m.unranged_here ? ", \"other_settings_ranged\": true" : "")
             << "}";
    }
    json << "\n  },\n  \"all_in_range\": " << (all_in_range() ? "true" : "false") << "\n}\n";
    // summary.json and report.html must be of one run: the old page goes first, so a kill
    // between the two writes leaves no page rather than the last run's; figures of an
    // earlier run that this one did not draw go too.
    ensure_directory(dir);
    claim_output_folder(dir);
    std::error_code gone;
    std::filesystem::remove(dir / "report.html", gone);
    plot::remove_earlier_figures(dir);
    const std::filesystem::path path = dir / "summary.json";
    write_text_atomically(path, json.str());

    // The page embeds the very text of summary.json, so its numbers cannot differ.
    report::Page page{report::chapter_title(chapter_), json.str(), {}, "", "", figures_, attention_};
    for (const Metric& m : metrics_) page.labels[m.key] = m.label;
    const std::filesystem::path reference = course_root() / "out" / chapter_ / "summary.json";
    std::error_code error;
    if (mine_ && std::filesystem::is_regular_file(reference, error)) {
        // Like with like: the reference run's numbers go beside the learner's only when it had the
        // same settings (a --quick run of 300 steps is not a default run of 3000).
        const std::string differ = settings_that_differ(reference);
        if (differ.empty()) page.reference_json = read_text(reference);
        else page.reference_note = "The reference run in out/" + chapter_ + "/ had other settings (" + differ +
                                   "), so its numbers are not set beside these. Run the chapter without --mine "
                                   "and with the same flags to compare.";
    } else if (mine_) {
        page.reference_note = "No reference run in out/" + chapter_ + "/ to set beside these numbers: run the chapter "
                              "without --mine and with the same flags to add one.";
    }
    write_text_atomically(dir / "report.html", report::page_html(page));
    std::cout << "  wrote " << path.string() << "\n  and " << (dir / "report.html").string()
              << ": this run's numbers and figures on one page (open it in a browser, or ./course report)\n";
    return path;
}

Ranges rows_for(const RangeTable& table, const std::string& settings) {
    Ranges rows;
    for (const ExpectedRange& row : table)
        if (row.settings == settings) rows.emplace(row.metric, row);
    return rows;
}

bool parse_chapter_flags(CommandLine& cli, RunSettings& run, int argc, char** argv, const std::string& chapter_dir,
                         const RangeTable& ranges, int default_steps, int quick_steps) {
    bool print_ranges = false;
    cli.flag("ranges", &print_ranges, "print the table of expected results (for the lesson) and stop");
    if (!cli.parse(argc, argv)) return false;
    if (print_ranges) {
        std::cout << ranges_markdown(ranges);
        return false;
    }
    finish_standard_flags(cli, run, chapter_dir, default_steps, quick_steps);
    return true;
}

std::string ranges_markdown(const RangeTable& table) {
    std::ostringstream text;
    text << "| metric | settings | range | untrained model |\n|---|---|---|---|\n";
    const auto number = [](double value) {
        char formatted[32];
        std::snprintf(formatted, sizeof formatted, "%.3g", value);
        return std::string(formatted);
    };
    for (const ExpectedRange& row : table)
        text << "| " << row.metric << " | " << row.settings << " | " << number(row.lo) << " to " << number(row.hi) << " | "
             << number(row.untrained) << " |\n";
    return text.str();
}

void add_metric(Summary& summary, const Ranges& ranges, const std::string& key, const std::string& label, double value) {
    const auto found = ranges.find(key);
    if (found == ranges.end()) summary.metric_unranged_here(key, label, value);
    else summary.metric(key, label, value, found->second.lo, found->second.hi);
}

SavedSummary::SavedSummary(const std::filesystem::path& path) : path_(path) {
    std::string json;
    try {
        json = read_text(path);
    } catch (const std::runtime_error& error) {
        throw InputError(error.what());
    }
    std::istringstream lines(json);
    static const std::regex setting(R"re(^\s*"([^"]+)": (.*?),?$)re");
    static const std::regex metric(R"re(^\s*"([^"]+)": \{"value": ([^,]+),)re");
    std::smatch match;
    for (std::string line; std::getline(lines, line);) {
        if (std::regex_search(line, match, metric)) {
            values_[match[1]] = match[2];
        } else if (std::regex_search(line, match, setting) && match[2] != "{") {
            std::string value = match[2];
            if (value.size() >= 2 && value.front() == '"') value = value.substr(1, value.size() - 2);
            values_[match[1]] = value;
        }
    }
}

bool SavedSummary::has(const std::string& key) const {
    const auto found = values_.find(key);
    return found != values_.end() && found->second != "null";
}

const std::string& SavedSummary::text(const std::string& key) const {
    const auto found = values_.find(key);
    if (found == values_.end())
        throw InputError(path_.string() + ": no \"" + key + "\" in this summary; run its chapter again to rewrite it");
    if (found->second == "null")
        throw InputError(path_.string() + ": \"" + key + "\" is null (not a number); run its chapter again to rewrite it");
    return found->second;
}

double SavedSummary::number(const std::string& key) const {
    const std::string& value = text(key);
    std::size_t used = 0;
    double number = 0;
    try {
        number = std::stod(value, &used);
    } catch (const std::logic_error&) {
        used = 0;
    }
    if (used != value.size() || value.empty())
        throw InputError(path_.string() + ": \"" + key + "\" is '" + value + "', not a number; run its chapter again to rewrite it");
    return number;
}

namespace {
bool is_course_root(const std::filesystem::path& dir) {
    std::error_code error;
    return std::filesystem::is_regular_file(dir / "course", error) && std::filesystem::is_directory(dir / "chapters", error);
}

std::filesystem::path find_upwards(std::filesystem::path dir) {
    for (; !dir.empty(); dir = dir.parent_path()) {
        if (is_course_root(dir)) return dir;
        if (dir == dir.parent_path()) break;
    }
    return {};
}
}  // namespace

std::filesystem::path course_root() {
    // The working directory first: ./course runs every program from the course's folder, and
    // a copy of the course (the lesson generator's mirrors) must write into its own out/.
    // Failing that, the folder the program was built in, so a run started elsewhere still
    // finds the course's saved runs.
    std::error_code error;
    const std::filesystem::path here = std::filesystem::current_path(error);
    if (!error) {
        const std::filesystem::path found = find_upwards(here);
        if (!found.empty()) return found;
    }
    const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", error);
    if (!error) {
        const std::filesystem::path found = find_upwards(program.parent_path());
        if (!found.empty()) return found;
    }
    return ".";
}

std::filesystem::path default_out_dir(const std::string& chapter_dir, bool mine) {
    const std::filesystem::path root = course_root();
    const std::filesystem::path folder = root / "out" / (mine ? "mine/" + chapter_dir : chapter_dir);
    // Relative when started inside the course's folder ("out/...", "../out/..."), else absolute.
    std::error_code error;
    const std::filesystem::path inside = std::filesystem::proximate(std::filesystem::current_path(error), root, error);
    if (error || (!inside.empty() && *inside.begin() == "..")) return std::filesystem::absolute(folder, error);
    return std::filesystem::proximate(folder, error);
}

}  // namespace attn
