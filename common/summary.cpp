// The run summary and summary.json (see summary.hpp). Introduced in chapter 00.
#include "common/summary.hpp"

#include "common/files.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <regex>
#include <sstream>

namespace attn {

std::string json_string(const std::string& text) {
    std::string quoted = "\"";
    for (const char c : text) {
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
                    quoted += c;   // UTF-8 passes through unchanged
                }
        }
    }
    return quoted + "\"";
}

std::string json_number(double value) {
    if (!std::isfinite(value)) return "null";
    char text[40];
    std::snprintf(text, sizeof text, "%.10g", value);
    return text;
}

Summary::Summary(std::string chapter, const RunSettings& settings) : chapter_(std::move(chapter)) {
    setting("variant", settings.variant);
    setting("seed", static_cast<double>(settings.seed));
    setting("steps", settings.steps);
    setting("quick", settings.quick ? "true" : "false");
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

bool Summary::all_in_range() const {
    for (const Metric& m : metrics_)
        if (!m.ok()) return false;
    return true;
}

std::filesystem::path Summary::finish(const std::filesystem::path& dir, double seconds) {
    setting("seconds", seconds);
    std::cout << "\nSummary (" << chapter_ << ")\n";
    for (const Metric& m : metrics_) {
        char line[256];
        if (m.ranged)
            std::snprintf(line, sizeof line, "  %-44s %10.4g  %s (a correct implementation: %.6g to %.6g)\n",
                          m.label.c_str(), m.value, m.ok() ? "ok " : "OUT", m.lo, m.hi);
        else
            std::snprintf(line, sizeof line, "  %-44s %10.4g      (no reference range for these settings)\n",
                          m.label.c_str(), m.value);
        std::cout << line;
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
             << ", \"expected_max\": " << (m.ranged ? json_number(m.hi) : "null") << ", \"in_range\": " << in_range << "}";
    }
    json << "\n  },\n  \"all_in_range\": " << (all_in_range() ? "true" : "false") << "\n}\n";
    const std::filesystem::path path = dir / "summary.json";
    write_text_atomically(path, json.str());
    return path;
}

std::map<std::string, std::string> read_summary(const std::filesystem::path& path) {
    std::map<std::string, std::string> values;
    std::istringstream lines(read_text(path));
    static const std::regex setting(R"re(^\s*"([^"]+)": (.*?),?$)re");
    static const std::regex metric(R"re(^\s*"([^"]+)": \{"value": ([^,]+),)re");
    std::smatch match;
    for (std::string line; std::getline(lines, line);) {
        if (std::regex_search(line, match, metric)) {
            values[match[1]] = match[2];
        } else if (std::regex_search(line, match, setting) && match[2] != "{") {
            std::string value = match[2];
            if (value.size() >= 2 && value.front() == '"') value = value.substr(1, value.size() - 2);
            values[match[1]] = value;
        }
    }
    return values;
}

}  // namespace attn
