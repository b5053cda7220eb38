// Heatmaps (see plot.hpp): square cells, token tick labels, a colour bar (or, for categories,
// a key naming each colour), optional values in the cells and outlined columns; sized so
// labels are never clipped.
// Introduced in chapter 00.
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



// Every length in pixels; cells are square and exactly `cell` wide.
struct HeatmapLayout {
    int cell = 0, width = 0, height = 0;
    int left = 0, right = 0, top = 0, bottom = 0;
    int tick_font = font_size, value_font = 10;
    int x_step = 1, y_step = 1;  // label every k-th index when there are no tick labels
    int x_rotation = 0;  // degrees: 0, 45 or 90
};


double widest_label(const std::vector<std::string>& labels, int points) {
    double widest = 0;
    for (const std::string& label : labels) widest = std::max(widest, text_pixels(label, points));
    return widest;
}

// The smallest step of 1, 2, 5, 10, 20, ... cells that keeps index labels `room` pixels apart.
int nice_step(double room, int cell) {
    for (int scale = 1;; scale *= 10)
        for (const int m : {1, 2, 5})
            if (m * scale * cell >= room) return m * scale;
}

// The fewest cells between two neighbouring non-empty labels: 1 when every cell is named,
// more when only every few cells carry a label (and a large number when there are none).
std::size_t label_gap(const std::vector<std::string>& labels) {
    std::size_t gap = 1000, last = 0;
    bool seen = false;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        if (labels[i].empty()) continue;
        if (seen) gap = std::min(gap, i - last);
        last = i;
        seen = true;
    }
    return gap;
}

// Chooses the cell size, fonts and tick rotation; the margins follow from the labels.
HeatmapLayout heatmap_layout(const Heatmap& plot) {
    const std::size_t rows = plot.values.shape(0), cols = plot.values.shape(1);
    const double longest = static_cast<double>(std::max(rows, cols));
    HeatmapLayout L;
    L.cell = plot.annotate ? std::clamp(static_cast<int>(640 / longest), 42, 72)
                           : std::clamp(static_cast<int>(600 / longest), 14, 56);
    L.tick_font = std::clamp(static_cast<int>(std::lround(L.cell * 0.55)), 8, font_size);
    const std::size_t x_gap = label_gap(plot.x_tick_labels), y_gap = label_gap(plot.y_tick_labels);
    if (x_gap >= 2 && y_gap >= 2)
        L.tick_font = std::max(L.tick_font, 10);  // sparse labels (or index labels) have room to be larger
    L.value_font = std::clamp(L.cell / 5, 7, 11);
    const double x_text = widest_label(tick_labels(plot.x_tick_labels, cols), L.tick_font);
    const double y_text = widest_label(tick_labels(plot.y_tick_labels, rows), L.tick_font);
    L.x_step = nice_step(x_text + 12, L.cell);  // only used without labels, so never rotated
    L.y_step = nice_step(1.8 * L.tick_font, L.cell);
    L.x_rotation = plot.x_tick_labels.empty() || x_text + 6 <= L.cell * static_cast<double>(x_gap) ? 0
                 : L.cell >= 24 ? 45 : 90;
    const double x_extent = L.x_rotation == 0 ? 1.4 * L.tick_font
                          : L.x_rotation == 45 ? 0.72 * (x_text + L.tick_font) : x_text;
    const int label_room = static_cast<int>(1.8 * font_size);
    L.left = 16 + (plot.ylabel.empty() ? 0 : label_room) + static_cast<int>(y_text) + 12;
    if (L.x_rotation == 45) L.left = std::max(L.left, static_cast<int>(0.72 * x_text) + 16 - L.cell / 2);
    L.bottom = 18 + (plot.xlabel.empty() ? 0 : label_room + 8) + static_cast<int>(x_extent) + 12;
    L.top = plot.title.empty() ? 24 : 56;
    L.right = 22 + 18 + 10 + static_cast<int>(text_pixels("-0.000", font_size)) +
              (plot.colorbar_label.empty() ? 0 : label_room) + 16;
    if (!plot.categories.empty())   // a key instead: a colour sample, then the category's name
        L.right = 22 + 40 + static_cast<int>(1.2 * widest_label(plot.categories, font_size)) + 16;
    return L;
}

// Widens the canvas for a long title and heightens it so the colour bar (at least 120 px)
// and the y label fit beside a short map; the extra space is shared on both sides.
void fit_canvas(const Heatmap& plot, HeatmapLayout& L) {
    const int plot_w = L.cell * static_cast<int>(plot.values.shape(1));
    const int plot_h = L.cell * static_cast<int>(plot.values.shape(0));
    L.width = L.left + plot_w + L.right;
    // text_pixels underestimates cairo's title font by about a fifth; err on the roomy side.
    const int title_w = std::max(360, static_cast<int>(1.25 * text_pixels(plot.title, title_font_size)) + 60);
    if (L.width < title_w) {
        const int extra = title_w - L.width;
        L.left += extra / 2;
        L.right += extra - extra / 2;
        L.width = title_w;
    }
    const int tall = std::max({plot_h, 120, static_cast<int>(text_pixels(plot.ylabel, font_size)) + 10});
    const int spill = (tall - plot_h) / 2 + 8;
    L.top = std::max(L.top, spill + (plot.title.empty() ? 0 : 32));
    L.bottom = std::max(L.bottom, spill);
    L.height = L.top + plot_h + L.bottom;
}

std::string tics_list(const std::vector<std::string>& labels) {
    std::string out = "(";
    for (std::size_t i = 0; i < labels.size(); ++i)
        out += std::string(i ? ", " : "") + gp_quote(labels[i]) + " " + std::to_string(i);
    return out + ")";
}

// Row and column labels; without labels, every k-th index so numbers do not collide.
std::string heatmap_tics(const Heatmap& plot, const HeatmapLayout& L) {
    const std::size_t rows = plot.values.shape(0), cols = plot.values.shape(1);
    const std::string font = " font '," + std::to_string(L.tick_font) + "'";
    const std::string rotation =
        L.x_rotation == 0 ? "" : " rotate by " + std::to_string(L.x_rotation) + " right";
    std::string out = "set tics scale 0                 # labels name the cells; no tick marks needed\n";
    const auto tics = [](const std::vector<std::string>& labels, std::size_t count, int step) {
        return labels.empty() ? "0, " + std::to_string(step) + ", " + std::to_string(count - 1)
                              : tics_list(tick_labels(labels, count));
    };
    out += "set xtics " + tics(plot.x_tick_labels, cols, L.x_step) + rotation + font + "\n";
    out += "set ytics " + tics(plot.y_tick_labels, rows, L.y_step) + font + "\n";
    return out;
}

std::string screen(int pixels, int total) { return "screen " + number(static_cast<double>(pixels) / total); }

// Margins fixed in pixels, so each cell is exactly L.cell pixels square.
std::string heatmap_frame(const Heatmap& plot, const HeatmapLayout& L) {
    const int rows = static_cast<int>(plot.values.shape(0)), cols = static_cast<int>(plot.values.shape(1));
    const int plot_w = L.cell * cols, plot_h = L.cell * rows;
    const int bar_h = std::max(plot_h, 120);
    std::string out = "# Each cell is " + std::to_string(L.cell) + " pixels square: margins set exactly.\n"
                      "set lmargin at " + screen(L.left, L.width) + "\n"
                      "set rmargin at " + screen(L.left + plot_w, L.width) + "\n"
                      "set bmargin at " + screen(L.bottom, L.height) + "\n"
                      "set tmargin at " + screen(L.bottom + plot_h, L.height) + "\n";
    out += "set xrange [-0.5:" + number(cols - 0.5) + "]\n";
    out += "set yrange [" + number(rows - 0.5) + ":-0.5]     # reversed: row 0 is at the top\n";
    if (!plot.categories.empty())
        return out + "unset colorbox                   # categories: the key names each colour instead\n"
                     "set key at " + screen(L.left + plot_w + 22, L.width) + ", " +
               screen(L.bottom + plot_h, L.height) + " left top Left reverse samplen 1.5 spacing 1.5 nobox\n";
    out += "set colorbox user origin " + screen(L.left + plot_w + 22, L.width) + ", " +
           screen(L.bottom + plot_h / 2 - bar_h / 2, L.height) + " size " + screen(18, L.width) + ", " +
           screen(bar_h, L.height) + "\n";
    return out;
}

// Thin white lines between the cells of small maps (on large ones they would drown the colours),
// or dark borders between tiles of tile_rows x tile_columns cells, at any size.
std::string heatmap_separators(const Heatmap& plot) {
    const std::size_t rows = plot.values.shape(0), cols = plot.values.shape(1);
    const bool tiles = plot.tile_rows > 0 || plot.tile_columns > 0;
    if (!tiles && std::max(rows, cols) > 24) return "";
    // Lines at -0.5 + k * step; a step of 0 (no tiles that way) puts none inside the map.
    const std::size_t row_step = tiles ? (plot.tile_rows > 0 ? plot.tile_rows : rows) : 1;
    const std::size_t col_step = tiles ? (plot.tile_columns > 0 ? plot.tile_columns : cols) : 1;
    const std::string line = tiles ? "lt 1 lc rgb '#222222' lw 2" : "lt 1 lc rgb '#FFFFFF' lw 1.5";
    return std::string(tiles ? "# Tile borders" : "# Cell borders") +
           ": grid lines on the (invisible) x2/y2 tics between the cells.\n"
           "set link x2\nset link y2\n"
           "set x2tics -0.5, " + std::to_string(col_step) + ", " + number(cols - 0.5) + " format '' scale 0\n"
           "set y2tics -0.5, " + std::to_string(row_step) + ", " + number(rows - 0.5) + " format '' scale 0\n"
           "set grid front noxtics noytics x2tics y2tics " + line + "\n";
}

// Categories: value c gets a band of its own, [c - 0.5, c + 0.5], in one flat colour.
std::string category_palette(const Heatmap& plot) {
    std::string out = "# One flat colour per category: value c is drawn in band c of the palette.\nset palette defined (";
    for (std::size_t c = 0; c < plot.categories.size(); ++c) {
        const std::string colour = gp_quote(hex_colour(category_colour(plot, c)));
        out += std::string(c ? ", " : "") + std::to_string(c) + " " + colour + ", " + std::to_string(c + 1) + " " + colour;
    }
    return out + ")\nset cbrange [-0.5:" + number(static_cast<double>(plot.categories.size()) - 0.5) + "]\n";
}

// Viridis over [lo, hi] with its colour bar.
std::string continuous_palette(const Heatmap& plot, double lo, double hi) {
    std::string out = "# Viridis: perceptually uniform, dark = low, yellow = high.\nset palette defined (";
    for (std::size_t k = 0; k < viridis.size(); ++k)
        out += std::string(k ? ", " : "") + number(viridis[k].first) + " " +
               gp_quote(hex_colour(viridis[k].second));
    out += ")\nset cbrange [" + number(lo) + ":" + number(hi) + "]\n";
    if (!plot.colorbar_label.empty()) out += "set cblabel " + gp_quote(plot.colorbar_label) + "\n";
    return out + "set cbtics scale 0.5 out nomirror\n";
}

std::string heatmap_palette(const Heatmap& plot, double lo, double hi) {
    std::string out = plot.categories.empty() ? continuous_palette(plot, lo, hi) : category_palette(plot);
    if (plot.annotate)
        out += "# Values in the cells: white text on dark cells, black on light ones.\nthreshold = " +
               number(lo + 0.55 * (hi - lo)) + "\n";
    for (std::size_t k = 0; k < plot.highlight_columns.size(); ++k) {
        const double c = static_cast<double>(plot.highlight_columns[k]);
        out += "set object " + std::to_string(k + 1) + " rectangle from " + number(c - 0.5) + ", -0.5 to " +
               number(c + 0.5) + ", " + number(static_cast<double>(plot.values.shape(0)) - 0.5) +
               " front fillstyle empty border lc rgb '#FF2D55' lw 3  # highlighted column\n";
    }
    return out;
}

// The plot command. For SVG, `pixels` draws every cell as its own rectangle: an embedded
// bitmap would be smoothed (blurred) when a browser scales it up.
std::string heatmap_command(const Heatmap& plot, const std::string& name, const HeatmapLayout& L,
                            bool pixels) {
    const std::string data = gp_quote(name + ".dat");
    // `with image` needs a grid of at least 2 x 2; a single row or column is drawn as boxes.
    const bool image = plot.values.shape(0) >= 2 && plot.values.shape(1) >= 2;
    const std::string style = image ? std::string("using 1:2:3 with image") + (pixels ? " pixels" : "")
                                    : "using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette";
    std::string out = "plot " + data + " " + style + " notitle";
    for (std::size_t c = 0; c < plot.categories.size(); ++c)   // the key: one entry per category
        out += ", \\\n     keyentry with boxes fs solid 1.0 border lc rgb '#555555' fc rgb " +
               gp_quote(hex_colour(category_colour(plot, c))) + " title " + gp_quote(plot.categories[c]);
    if (!plot.annotate) return out + "\n";
    const std::string font = " font '," + std::to_string(L.value_font) + "' notitle";
    const std::string value = "sprintf('%.2f', $3)";
    const std::string next = ", \\\n     '' using 1:2:";
    return out + next + "($3 < threshold ? " + value + " : '') with labels tc rgb '#FFFFFF'" + font +
           next + "($3 >= threshold ? " + value + " : '') with labels tc rgb '#000000'" + font + "\n";
}

std::string heatmap_data(const Heatmap& plot) {
    std::string out = "# column row value  (one block per row; row 0 is drawn at the top)\n";
    for (std::size_t i = 0; i < plot.values.shape(0); ++i) {
        for (std::size_t j = 0; j < plot.values.shape(1); ++j)
            out += std::to_string(j) + " " + std::to_string(i) + " " + number(plot.values(i, j)) + "\n";
        out += "\n";
    }
    return out;
}

}  // namespace

Files save(const Heatmap& plot, const std::filesystem::path& dir, const std::string& name) {
    check_name("attn::plot::save(Heatmap)", name);
    check_heatmap("attn::plot::save(Heatmap)", plot);
    ensure_directory(dir);
    write_text_atomically(dir / (name + ".dat"), heatmap_data(plot));
    HeatmapLayout layout = heatmap_layout(plot);
    fit_canvas(plot, layout);
    const auto [lo, hi] = colour_range(plot);
    const std::string data_note = "Data: " + name + ".dat (columns: column row value)";
    const std::string script =
        script_head("Heatmap '" + plot.title + "'", name, data_note, layout.width, layout.height) +
        titles(plot.title, plot.xlabel, plot.ylabel) + heatmap_frame(plot, layout) +
        heatmap_tics(plot, layout) + heatmap_separators(plot) + heatmap_palette(plot, lo, hi) +
        heatmap_command(plot, name, layout, true) +
        script_tail(name, layout.width, layout.height, heatmap_command(plot, name, layout, false));
    return write_and_render(dir, name, script);
}


}  // namespace attn::plot
