// The pieces every kind of figure shares (see plot_support.hpp), and the public entry points
// that are not about one kind of figure. Introduced in chapter 00.
#include "common/plot_support.hpp"

#include "common/files.hpp"
#include "common/output_claim.hpp"

#include <algorithm>
#include <iostream>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <locale>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <utility>

#include <unistd.h>

namespace attn::plot {
namespace detail {

std::string gp_quote(const std::string& text) {
    std::string out = "'";
    for (const char c : text) {
        if (c == '\'') out += "''";
        else if (static_cast<unsigned char>(c) < 0x20) out += ' ';
        else out += c;
    }
    return out + "'";
}

std::string shell_quote(const std::string& text) {
    std::string out = "'";
    for (const char c : text) out += (c == '\'') ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string number(double value) {
    if (!std::isfinite(value)) return "NaN";
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out.precision(9);
    out << value;
    return out.str();
}

std::string hex_colour(std::uint32_t rgb) {
    static const char* const digits = "0123456789ABCDEF";
    std::string out = "#";
    for (int shift = 20; shift >= 0; shift -= 4) out += digits[(rgb >> shift) & 0xF];
    return out;
}

std::size_t decode_utf8(const std::string& text, std::size_t i, char32_t& code_point) {
    const unsigned char lead = static_cast<unsigned char>(text[i]);
    const std::size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3
                             : (lead >> 3) == 0x1E ? 4 : 0;
    if (length == 0 || i + length > text.size()) { code_point = lead; return 1; }
    code_point = length == 1 ? lead : lead & (0x7F >> length);
    for (std::size_t k = 1; k < length; ++k) {
        const unsigned char next = static_cast<unsigned char>(text[i + k]);
        if ((next >> 6) != 0x2) { code_point = lead; return 1; }
        code_point = (code_point << 6) | (next & 0x3F);
    }
    return length;
}

bool is_combining(char32_t c) {
    return (c >= 0x0300 && c <= 0x036F) || (c >= 0x1AB0 && c <= 0x1AFF) ||
           (c >= 0x20D0 && c <= 0x20FF) || (c >= 0xFE00 && c <= 0xFE0F) ||
           (c >= 0xFE20 && c <= 0xFE2F) || c == 0x200D;
}

bool is_wide(char32_t c) {
    return (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF && c != 0x303F) ||
           (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) ||
           (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
           (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1F64F) ||
           (c >= 0x1F900 && c <= 0x1F9FF) || (c >= 0x20000 && c <= 0x3FFFD);
}

std::vector<Glyph> split_glyphs(const std::string& text) {
    std::vector<Glyph> glyphs;
    for (std::size_t i = 0; i < text.size();) {
        char32_t c = 0;
        const std::size_t length = decode_utf8(text, i, c);
        const std::string bytes = text.substr(i, length);
        i += length;
        if (c < 0x20) continue;  // control characters would break the layout
        if (is_combining(c) && !glyphs.empty()) glyphs.back().text += bytes;
        else glyphs.push_back({bytes, is_wide(c) ? 2 : 1});
    }
    return glyphs;
}

std::string one_line(const std::string& text) {
    std::string out = text;
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    return out;
}

std::size_t display_width(const std::string& text) {
    std::size_t width = 0;
    for (const Glyph& g : split_glyphs(text)) width += static_cast<std::size_t>(g.width);
    return width;
}

std::string fit_label(const std::string& label, std::size_t width, bool pad) {
    const std::vector<Glyph> glyphs = split_glyphs(label);
    const bool cut = display_width(label) > width;
    const std::size_t room = cut ? width - std::min<std::size_t>(width, 1) : width;
    std::string out;
    std::size_t used = 0;
    for (const Glyph& g : glyphs) {
        if (used + static_cast<std::size_t>(g.width) > room) break;
        out += g.text;
        used += static_cast<std::size_t>(g.width);
    }
    if (cut && width > 0) { out += "…"; ++used; }
    if (pad) out += std::string(width - std::min(width, used), ' ');
    return out;
}

double text_pixels(const std::string& text, int points) {
    double em = 0;
    for (const Glyph& g : split_glyphs(text)) em += g.width == 2 ? 1.05 : 0.64;
    return em * points;
}

std::string shorten(const std::string& label, std::size_t max_columns) {
    return display_width(label) > max_columns ? fit_label(label, max_columns, false) : label;
}

void check_name(const char* function, const std::string& name) {
    if (name.empty() || name.find('/') != std::string::npos || name.find('\\') != std::string::npos)
        throw std::invalid_argument(std::string(function) + ": the figure name '" + name +
                                    "' must be a non-empty file name without '/' or '\\'");
}

void check_count(const char* function, const char* labels, std::size_t got, std::size_t want,
                 const char* unit) {
    if (got != 0 && got != want)
        throw std::invalid_argument(std::string(function) + ": " + labels + " has " + std::to_string(got) +
                                    " labels but values has " + std::to_string(want) + " " + unit +
                                    "s (give one label per " + unit + ", or none)");
}

std::string terminal_line(const char* terminal, int width, int height) {
    return std::string("set terminal ") + terminal + " size " + std::to_string(width) + "," +
           std::to_string(height) + " font " + gp_quote(std::string(font_name) + "," +
           std::to_string(font_size)) + " noenhanced background '#FFFFFF'\n";
}

std::string script_head(const std::string& what, const std::string& name,
                        const std::string& data_note, int width, int height) {
    return "# " + one_line(what) + script_signature + "\n"
           "# Edit freely, then re-render from this folder with:  gnuplot " + name + ".gp\n"
           "# " + data_note + "\n"
           "set encoding utf8\n" + terminal_line("svg", width, height) +
           "set output " + gp_quote(name + ".svg") + "\n";
}

std::string script_tail(const std::string& name, int width, int height,
                        const std::string& command) {
    return "\n# The same figure as PNG.\n" + terminal_line("pngcairo", width, height) +
           "set output " + gp_quote(name + ".png") + "\n" + command + "unset output\n";
}

std::string titles(const std::string& title, const std::string& xlabel, const std::string& ylabel) {
    std::string out;
    if (!title.empty()) out += "set title " + gp_quote(title) + " font ',"
                               + std::to_string(title_font_size) + "'\n";
    if (!xlabel.empty()) out += "set xlabel " + gp_quote(xlabel) + "\n";
    if (!ylabel.empty()) out += "set ylabel " + gp_quote(ylabel) + "\n";
    return out;
}


void check_heatmap(const char* function, const Heatmap& plot) {
    const std::size_t rows = plot.values.shape(0), cols = plot.values.shape(1);
    if (rows == 0 || cols == 0)
        throw std::invalid_argument(std::string(function) + ": the heatmap '" + plot.title +
                                    "' has no values (" + std::to_string(rows) + " x " +
                                    std::to_string(cols) + ")");
    check_count(function, "x_tick_labels", plot.x_tick_labels.size(), cols, "column");
    check_count(function, "y_tick_labels", plot.y_tick_labels.size(), rows, "row");
    if (plot.z_min && plot.z_max && !(*plot.z_min < *plot.z_max))
        throw std::invalid_argument(std::string(function) + ": z_min must be below z_max");
    for (const std::size_t c : plot.highlight_columns)
        if (c >= cols)
            throw std::invalid_argument(std::string(function) + ": highlight_columns holds column " +
                                        std::to_string(c) + " but the heatmap has " + std::to_string(cols) +
                                        " columns");
    for (const double v : plot.values)   // categorical mode: each value names a category
        if (!plot.categories.empty() && !(v >= 0 && v < static_cast<double>(plot.categories.size()) && v == std::floor(v)))
            throw std::invalid_argument(std::string(function) + ": the heatmap '" + plot.title + "' has " +
                                        std::to_string(plot.categories.size()) +
                                        " categories, so its values must be whole numbers from 0 to " +
                                        std::to_string(plot.categories.size() - 1) + "; it holds " + number(v));
    if (!plot.category_colours.empty() && plot.category_colours.size() != plot.categories.size())
        throw std::invalid_argument(std::string(function) + ": the heatmap '" + plot.title + "' has " +
                                    std::to_string(plot.categories.size()) + " categories but " +
                                    std::to_string(plot.category_colours.size()) + " category colours");
}

std::pair<double, double> colour_range(const Heatmap& plot) {
    double lo = INFINITY, hi = -INFINITY;
    for (const double v : plot.values)
        if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    if (!std::isfinite(lo)) lo = 0, hi = 1;  // nothing finite to show
    if (plot.z_min) lo = *plot.z_min;
    if (plot.z_max) hi = *plot.z_max;
    if (!(lo < hi)) {  // a constant map: centre it in a unit range
        if (plot.z_min) hi = lo + 1;
        else if (plot.z_max) lo = hi - 1;
        else lo -= 0.5, hi += 0.5;
    }
    return {lo, hi};
}

std::vector<std::string> tick_labels(const std::vector<std::string>& labels, std::size_t count) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < count; ++i)
        out.push_back(labels.empty() ? std::to_string(i) : shorten(labels[i], 16));
    return out;
}

}  // namespace detail

bool gnuplot_available() {
    static const bool available = std::system("command -v gnuplot >/dev/null 2>&1") == 0;
    return available;
}

namespace {
template <class Figure>
Files save_and_tell(const Figure& figure, const std::filesystem::path& dir, const std::string& name) {
    ensure_directory(dir);
    claim_output_folder(dir);   // a run's figures are its own: no second run draws beside them
    const Files files = save(figure, dir, name);
    if (files.rendered) std::cout << "  wrote " << files.png.string() << " (and .svg)\n";
    else std::cout << "  wrote " << files.script.string() << " (" << files.note << ")\n";
    return files;
}
}  // namespace

Files save_and_report(const LinePlot& p, const std::filesystem::path& d, const std::string& n) { return save_and_tell(p, d, n); }
Files save_and_report(const RegionPlot& p, const std::filesystem::path& d, const std::string& n) { return save_and_tell(p, d, n); }
Files save_and_report(const Heatmap& p, const std::filesystem::path& d, const std::string& n) { return save_and_tell(p, d, n); }
Files save_and_report(const HeatmapGrid& p, const std::filesystem::path& d, const std::string& n) { return save_and_tell(p, d, n); }

}  // namespace attn::plot
