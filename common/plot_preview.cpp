// The terminal preview of a heatmap (see plot.hpp): Unicode shades, optional 256-colour
// backgrounds, labels and the scale (or, for categories, a key naming each shade).
// Introduced in chapter 00; the preview of a grid of heatmaps (the panels one below the
// other) in chapter 05.
#include "common/plot_support.hpp"

#include "common/files.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <stdexcept>

namespace attn::plot {
namespace {

using namespace detail;

// The xterm 256-colour cube index nearest to an RGB colour.
int xterm_colour(std::uint32_t rgb) {
    static constexpr std::array<int, 6> levels = {0, 95, 135, 175, 215, 255};
    int index = 16;
    for (int shift = 16, weight = 36; shift >= 0; shift -= 8, weight /= 6) {
        const int channel = static_cast<int>((rgb >> shift) & 0xFF);
        int best = 0;
        for (int k = 1; k < 6; ++k)
            if (std::abs(levels[k] - channel) < std::abs(levels[best] - channel)) best = k;
        index += best * weight;
    }
    return index;
}

std::uint32_t viridis_at(double t) {
    std::size_t k = 1;
    while (k + 1 < viridis.size() && viridis[k].first < t) ++k;
    const auto& [t0, below] = viridis[k - 1];
    const auto& [t1, above] = viridis[k];
    const double f = std::clamp((t - t0) / (t1 - t0), 0.0, 1.0);
    std::uint32_t out = 0;
    for (int shift = 16; shift >= 0; shift -= 8) {
        const double a = (below >> shift) & 0xFF, b = (above >> shift) & 0xFF;
        out |= static_cast<std::uint32_t>(std::lround(a + f * (b - a))) << shift;
    }
    return out;
}

constexpr std::array<const char*, 5> shades = {" ", "░", "▒", "▓", "█"};

// One two-column cell. With colour, foreground and background are the same viridis colour:
// a solid block on screen, while a copied text still keeps the shading characters.
std::string preview_cell(double value, double lo, double hi, bool colour) {
    if (!std::isfinite(value)) return "··";
    const double t = std::clamp((value - lo) / (hi - lo), 0.0, 1.0);
    const std::string shade = shades[std::min<std::size_t>(4, static_cast<std::size_t>(t * 5))];
    if (!colour) return shade + shade;
    const std::string code = std::to_string(xterm_colour(viridis_at(t)));
    return "\x1b[38;5;" + code + "m\x1b[48;5;" + code + "m" + shade + shade;
}

// Category c of k: shades from light to full (░ for the background category 0, █ for the
// last), so the cells stay distinct without colour; with colour, the category's own.
std::string category_cell(const Heatmap& plot, std::size_t c, bool colour) {
    const std::size_t k = plot.categories.size();
    const std::string shade = shades[k < 2 ? 4 : 1 + c * 3 / (k - 1)];
    if (!colour) return shade + shade;
    const std::string code = std::to_string(xterm_colour(category_colour(plot, c)));
    return "\x1b[38;5;" + code + "m\x1b[48;5;" + code + "m" + shade + shade;
}

std::string cell(const Heatmap& plot, double value, double lo, double hi, bool colour) {
    if (plot.categories.empty()) return preview_cell(value, lo, hi, colour);
    return category_cell(plot, static_cast<std::size_t>(value), colour);
}

// Column labels written downwards, one glyph per two-column cell, at most 6 lines.
std::vector<std::string> preview_column_labels(const std::vector<std::string>& labels, std::size_t shown) {
    if (labels.empty()) return {};
    std::vector<std::vector<Glyph>> columns;
    std::size_t depth = 0;
    for (std::size_t j = 0; j < shown; ++j) {
        columns.push_back(split_glyphs(fit_label(labels[j], 6, false)));
        depth = std::max(depth, columns.back().size());
    }
    std::vector<std::string> lines(depth);
    for (std::size_t k = 0; k < depth; ++k)
        for (const std::vector<Glyph>& column : columns)
            lines[k] += k < column.size() ? column[k].text + (column[k].width == 2 ? "" : " ") : "  ";
    return lines;
}

// Column labels too long to write downwards: the columns are numbered (the ruler above) and
// listed as "0 ces · 1 reines · 2 agricoles", wrapped to max_width after the indent.
std::vector<std::string> preview_column_legend(const std::vector<std::string>& labels, std::size_t shown,
                                               std::size_t indent, std::size_t max_width) {
    std::vector<std::string> lines(1);
    std::size_t width = 0;
    const std::size_t room = max_width > indent + 10 ? max_width - indent : 10;
    for (std::size_t j = 0; j < shown; ++j) {
        const std::string entry = std::to_string(j) + " " + fit_label(labels[j], 16, false);
        const std::size_t entry_width = display_width(entry) + (width > 0 ? 3 : 0);
        if (width > 0 && width + entry_width > room) {
            lines.emplace_back();
            width = 0;
        }
        lines.back() += (width > 0 ? " · " : "") + entry;
        width += display_width(entry) + (width > 0 ? 3 : 0);
    }
    return lines;
}

// Without labels: the column index under every 5th column.
std::string preview_column_ruler(std::size_t shown) {
    std::string line;
    for (std::size_t j = 0; j < shown; j += 5) {
        const std::string index = std::to_string(j);
        line += index + std::string(std::max<std::size_t>(10, index.size() + 1) - index.size(), ' ');
    }
    return line;
}

std::string short_number(double value) {
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out.precision(3);
    out << value;
    return out.str();
}

// "key: ░░ blocked (true)   ██ may attend (false)"
std::string preview_key(const Heatmap& plot, bool colour) {
    std::string line = "key:";
    for (std::size_t c = 0; c < plot.categories.size(); ++c)
        line += std::string(c ? "  " : "") + " " + category_cell(plot, c, colour) +
                (colour ? "\x1b[0m" : "") + " " + plot.categories[c];
    return line;
}

// The last line: the colour scale (or the categories' key), what ·· means when a value is not
// a number, and how many columns fit. `plot` gives the categories and the colour bar's label.
std::string preview_scale(const Heatmap& plot, double lo, double hi, bool colour, bool not_a_number,
                          std::size_t shown, std::size_t cols) {
    std::string ramp;
    for (std::size_t k = 0; k < shades.size(); ++k)
        ramp += preview_cell(lo + (hi - lo) * (static_cast<double>(k) + 0.5) / 5.0, lo, hi, colour);
    std::string line = !plot.categories.empty() ? preview_key(plot, colour)
                     : "scale: " + short_number(lo) + " [" + ramp + (colour ? "\x1b[0m" : "") + "] " + short_number(hi);
    if (!plot.colorbar_label.empty() && plot.categories.empty()) line += "  (" + plot.colorbar_label + ")";
    if (not_a_number) line += "  ·· = not a number";
    if (shown < cols)
        line += "  [columns 0-" + std::to_string(shown - 1) + " of " + std::to_string(cols) + " shown]";
    return line;
}

bool has_non_finite(const Heatmap& plot) {
    return std::any_of(plot.values.begin(), plot.values.end(), [](double v) { return !std::isfinite(v); });
}

// How many columns fit in max_width after the row labels (label_w wide and a space), two text
// columns each; when they do not all fit, two more are kept for the " …" marker.
std::size_t shown_columns(std::size_t cols, std::size_t label_w, std::size_t max_width) {
    const std::size_t room = max_width > label_w + 1 ? max_width - label_w - 1 : 0;
    return 2 * cols <= room ? cols : std::max<std::size_t>(1, room > 2 ? (room - 2) / 2 : 0);
}

std::size_t row_label_width(const std::vector<std::string>& row_labels, std::size_t max_width) {
    std::size_t label_w = 1;
    for (const std::string& label : row_labels) label_w = std::max(label_w, display_width(label));
    return std::min({label_w, std::size_t{12}, std::max<std::size_t>(1, max_width / 3)});
}

struct PreviewRows {
    std::string text;
    std::size_t shown;   // the columns that fit
};

// The map without title and scale: one line per row (label, then a two-column cell per value
// coloured on [lo, hi]), then, when `column_labels` is set, the column labels underneath.
PreviewRows preview_rows(const Heatmap& plot, double lo, double hi, bool colour, std::size_t max_width,
                         bool column_labels) {
    const std::size_t rows = plot.values.shape(0), cols = plot.values.shape(1);
    const std::vector<std::string> row_labels = tick_labels(plot.y_tick_labels, rows);
    const std::size_t label_w = row_label_width(row_labels, max_width);
    const std::size_t shown = shown_columns(cols, label_w, max_width);
    std::string out;
    for (std::size_t i = 0; i < rows; ++i) {
        out += fit_label(row_labels[i], label_w, true) + " ";
        for (std::size_t j = 0; j < shown; ++j) out += cell(plot, plot.values(i, j), lo, hi, colour);
        out += std::string(colour ? "\x1b[0m" : "") + (shown < cols ? " …" : "") + "\n";
    }
    if (!column_labels) return {out, shown};
    const std::string indent(label_w + 1, ' ');
    const auto trimmed = [](std::string line) { return line.erase(line.find_last_not_of(' ') + 1); };
    // Labels of up to 3 glyphs are written downwards under their columns; longer ones (words)
    // would be cut and hard to read that way, so the columns get numbers and a legend instead.
    bool long_labels = false;
    for (std::size_t j = 0; j < shown && j < plot.x_tick_labels.size(); ++j)
        long_labels = long_labels || split_glyphs(plot.x_tick_labels[j]).size() > 3;
    if (plot.x_tick_labels.empty() || long_labels) out += trimmed(indent + preview_column_ruler(shown)) + "\n";
    if (long_labels) {
        for (const std::string& line : preview_column_legend(plot.x_tick_labels, shown, indent.size(), max_width))
            out += indent + line + "\n";
    } else {
        for (const std::string& line : preview_column_labels(plot.x_tick_labels, shown))
            out += trimmed(indent + line) + "\n";
    }
    return {out, shown};
}

}  // namespace

// Title, rows and column labels (preview_rows), then the scale.
std::string preview(const Heatmap& plot, bool colour, std::size_t max_width) {
    check_heatmap("attn::plot::preview", plot);
    const auto [lo, hi] = colour_range(plot);
    const PreviewRows rows = preview_rows(plot, lo, hi, colour, max_width, true);
    const std::string title = plot.title.empty() ? "" : fit_label(plot.title, max_width, false) + "\n";
    return title + rows.text +
           preview_scale(plot, lo, hi, colour, has_non_finite(plot), rows.shown, plot.values.shape(1)) + "\n";
}

// The grid's title, then each panel under its own title, separated by a blank line, all
// coloured on the grid's one range; then the one scale. As in the figure, a panel's column
// labels are left out when the next panel has the same ones: they show once, under the last.
std::string preview(const HeatmapGrid& plot, bool colour, std::size_t max_width) {
    check_grid("attn::plot::preview(HeatmapGrid)", plot);
    const auto [lo, hi] = shared_colour_range(plot);
    std::string out = plot.title.empty() ? "" : fit_label(plot.title, max_width, false) + "\n";
    const std::size_t cols = plot.panels[0].values.shape(1);
    bool not_a_number = false;
    std::size_t shown = cols;
    for (std::size_t k = 0; k < plot.panels.size(); ++k) {
        const Heatmap& panel = plot.panels[k];
        const bool last = k + 1 == plot.panels.size();
        const bool labels = last || panel.x_tick_labels != plot.panels[k + 1].x_tick_labels;
        const PreviewRows rows = preview_rows(panel, lo, hi, colour, max_width, labels);
        out += (k > 0 ? "\n" : "") + fit_label(panel.title, max_width, false) + "\n" + rows.text;
        not_a_number = not_a_number || has_non_finite(panel);
        shown = std::min(shown, rows.shown);
    }
    Heatmap scale;   // what the scale line needs to know: the colour bar's label
    scale.colorbar_label = plot.colorbar_label;
    return out + preview_scale(scale, lo, hi, colour, not_a_number, shown, cols) + "\n";
}

}  // namespace attn::plot
