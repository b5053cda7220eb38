// The report page (see report.hpp).
#include "common/report.hpp"

#include "common/files.hpp"
#include "common/summary.hpp"

#include <fstream>
#include <sstream>

namespace attn::report {

namespace {

std::vector<std::string> labels_or_positions(const std::vector<std::string>& labels, std::size_t count) {
    // "#i", position i, stands in for a missing label (sparse tick labels leave most of them
    // empty); the "#" keeps a position from passing for a value such as "2".
    std::vector<std::string> tokens;
    for (std::size_t i = 0; i < count; ++i)
        tokens.push_back(i < labels.size() && !labels[i].empty() ? labels[i] : "#" + std::to_string(i));
    return tokens;
}

AttentionRecord record_of(const plot::Heatmap& map, const AttentionLabel& label, const std::string& title) {
    AttentionRecord record;
    record.label = label;
    record.title = title;
    record.query_axis = map.ylabel.empty() ? "query" : map.ylabel;
    record.key_axis = map.xlabel.empty() ? "key" : map.xlabel;
    record.queries = labels_or_positions(map.y_tick_labels, map.values.shape(0));
    record.keys = labels_or_positions(map.x_tick_labels, map.values.shape(1));
    record.weights = map.values;
    return record;
}

std::string base64(const std::string& bytes) {
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string text;
    text.reserve((bytes.size() + 2) / 3 * 4);
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        const std::size_t left = bytes.size() - i;
        unsigned value = static_cast<unsigned char>(bytes[i]) << 16;
        if (left > 1) value |= static_cast<unsigned char>(bytes[i + 1]) << 8;
        if (left > 2) value |= static_cast<unsigned char>(bytes[i + 2]);
        text += digits[(value >> 18) & 63];
        text += digits[(value >> 12) & 63];
        text += left > 1 ? digits[(value >> 6) & 63] : '=';
        text += left > 2 ? digits[value & 63] : '=';
    }
    return text;
}

std::string escape_html(const std::string& text) {
    std::string escaped;
    for (const char c : text) {
        switch (c) {
            case '&': escaped += "&amp;"; break;
            case '<': escaped += "&lt;"; break;
            case '>': escaped += "&gt;"; break;
            case '"': escaped += "&quot;"; break;
            default: escaped += c;
        }
    }
    return escaped;
}

// JSON inside <script> must not contain "</" (it would end the element early).
std::string script_safe(const std::string& json) {
    std::string safe;
    for (std::size_t i = 0; i < json.size(); ++i) {
        safe += json[i];
        if (json[i] == '<' && i + 1 < json.size() && json[i + 1] == '/') safe += "\\";
    }
    return safe;
}

std::string strings_json(const std::vector<std::string>& texts) {
    std::string json = "[";
    for (std::size_t i = 0; i < texts.size(); ++i) json += (i ? ", " : "") + json_string(texts[i]);
    return json + "]";
}

std::string record_json(const AttentionRecord& r) {
    std::ostringstream json;
    json << "{\"example\": " << json_string(r.label.example) << ", \"kind\": " << json_string(r.label.kind)
         << ", \"layer\": " << r.label.layer << ", \"head\": " << r.label.head
         << ", \"reference\": " << json_string(r.label.reference) << ", \"title\": " << json_string(r.title)
         << ", \"query_axis\": " << json_string(r.query_axis) << ", \"key_axis\": " << json_string(r.key_axis)
         << ", \"queries\": " << strings_json(r.queries) << ", \"keys\": " << strings_json(r.keys) << ", \"weights\": [";
    for (std::size_t i = 0; i < r.weights.shape(0); ++i) {
        json << (i ? ", " : "") << "[";
        for (std::size_t j = 0; j < r.weights.shape(1); ++j) json << (j ? ", " : "") << json_number(r.weights(i, j));
        json << "]";
    }
    json << "]}";
    return json.str();
}

std::string data_json(const Page& page) {
    std::ostringstream json;
    json << "{\"title\": " << json_string(page.title) << ",\n\"summary\": " << page.summary_json << ",\"labels\": {";
    bool first = true;
    for (const auto& [key, label] : page.labels) {
        json << (first ? "" : ", ") << json_string(key) << ": " << json_string(label);
        first = false;
    }
    json << "},\n\"attention\": [";
    for (std::size_t i = 0; i < page.attention.size(); ++i) json << (i ? ",\n" : "\n") << record_json(page.attention[i]);
    json << "]}";
    return json.str();
}

// A figure as an <img> with its SVG (else its PNG) inside a data: URI: the page stays one
// file, and each figure keeps its own ids and styles.
std::string figure_html(const plot::Files& files) {
    const std::string name = escape_html(files.script.stem().string());
    std::error_code error;
    for (const auto& [path, type] : {std::pair{files.svg, "image/svg+xml"}, std::pair{files.png, "image/png"}}) {
        if (path.empty() || !std::filesystem::is_regular_file(path, error)) continue;
        return "<figure><img alt=\"figure " + name + "\" src=\"data:" + type + ";base64," + base64(read_text(path)) +
               "\"><figcaption>" + name + "</figcaption></figure>\n";
    }
    return "<figure><figcaption>" + name + ": not rendered (" + escape_html(files.note) + ")</figcaption></figure>\n";
}

}  // namespace

std::vector<AttentionRecord> records_of(const plot::Heatmap& map, const AttentionLabel& label) {
    return {record_of(map, label, map.title)};
}

std::vector<AttentionRecord> records_of(const plot::HeatmapGrid& grid, const AttentionLabel& label) {
    std::vector<AttentionRecord> records;
    for (std::size_t k = 0; k < grid.panels.size(); ++k) {
        AttentionLabel head = label;
        const std::size_t per_layer = label.heads_per_layer > 0 ? label.heads_per_layer : grid.panels.size();
        head.layer = label.layer + k / per_layer;
        head.head = k % per_layer + 1;
        const std::string& panel = grid.panels[k].title;
        records.push_back(record_of(grid.panels[k], head, panel.empty() ? grid.title : grid.title + ": " + panel));
    }
    return records;
}

std::string page_html(const Page& page) {
    std::ostringstream html;
    html << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         << "<title>" << escape_html(page.title) << ": report of a run</title>\n"
         << "<style>\n" << style_css << "</style>\n"
         // Errors (thrown or logged) are collected from the first script on, so the self-test
         // can report them.
         << "<script>window.reportErrors = []; window.addEventListener(\"error\", (e) => window.reportErrors.push(e.message));\n"
         << "console.error = ((log) => (...what) => { window.reportErrors.push(what.join(\" \")); log(...what); })(console.error);</script>\n"
         << "</head>\n<body>\n<main>\n<h1>" << escape_html(page.title) << "</h1>\n"
         // The explorer first: it is what the page adds to the terminal's summary (hidden
         // when the run recorded no attention).
         << "<section id=\"explorer\" aria-labelledby=\"explorer-title\"><h2 id=\"explorer-title\">Attention explorer</h2>\n"
         << "<div class=\"controls\">"
         << "<label>example <select id=\"example\"></select></label><label>kind <select id=\"kind\"></select></label>"
         << "<label>layer <select id=\"layer\"></select></label><label>head <select id=\"head\"></select></label>"
         << "<label>mark weights from <input id=\"threshold\" type=\"number\" min=\"0\" max=\"1\" step=\"0.05\" value=\"0.1\"></label>"
         << "</div>\n<h3 id=\"view-title\"></h3><div id=\"example-text\"></div>\n"
         << "<div class=\"axis\" id=\"queries-label\"></div><div class=\"tokens\" id=\"queries\"></div>\n"
         << "<div class=\"axis\" id=\"keys-label\"></div><div class=\"tokens\" id=\"keys\"></div>\n"
         << "<div id=\"readout\" aria-live=\"polite\"></div><div id=\"thumbnails\"></div></section>\n"
         << "<section id=\"summary\"><h2>Summary</h2><div class=\"table-box\"><table id=\"metrics\"></table></div>"
         << (page.reference_json.empty() ? "" : "<p>The last column is the reference run's (out/ without mine/), with the same settings.</p>")
         << (page.reference_note.empty() ? "" : "<p class=\"note\">" + escape_html(page.reference_note) + "</p>")
         << "<div id=\"settings\"></div></section>\n"
         << "<section id=\"figures\"><h2>Figures</h2>\n";
    for (const plot::Files& files : page.figures) html << figure_html(files);
    html << "</section>\n</main>\n"
         << "<script type=\"application/json\" id=\"report-data\">" << script_safe(data_json(page)) << "</script>\n"
         << "<script type=\"application/json\" id=\"reference-data\">" << script_safe(page.reference_json) << "</script>\n"
         << "<script>\n" << explorer_js << "</script>\n</body>\n</html>\n";
    return html.str();
}

std::string chapter_title(const std::string& chapter_dir) {
    std::ifstream lesson(course_root() / "chapters" / chapter_dir / "README.md");
    for (std::string line; std::getline(lesson, line);)   // after the language switch line
        if (line.rfind("# ", 0) == 0) return line.substr(2);
    return chapter_dir;
}

}  // namespace attn::report
