// Grids of heatmaps (see plot.hpp): several maps of one shape side by side in a gnuplot
// multiplot, one colour scale and one colour bar, each panel titled. Introduced in chapter 05
// (one panel per attention head).
#include "common/plot_support.hpp"

#include "common/files.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace attn::plot {
namespace {

using namespace detail;

// Every length in pixels; cells are square and exactly `cell` wide.
struct GridLayout {
    std::size_t rows = 0, cols = 0;          // of each panel
    std::size_t grid_rows = 0, grid_cols = 0;
    int cell = 0, tick_font = font_size, x_rotation = 0;
    int y_room = 0, x_room = 0;              // room for tick labels (and axis labels) left of / below a panel
    int title_room = 26, gap = 18, top = 0, right = 0, width = 0, height = 0;
    std::vector<int> left, bottom;           // each panel's plot area: left edge, bottom edge (from the bottom)
};

std::size_t grid_columns(const HeatmapGrid& plot) {
    return plot.columns == 0 ? plot.panels.size() : std::min(plot.columns, plot.panels.size());
}

// Tick labels are shared (drawn once) where the neighbour that shows them has the same ones.
bool draws_y_labels(const HeatmapGrid& plot, std::size_t k) {
    const std::size_t c = grid_columns(plot), first = k - k % c;
    return k % c == 0 || plot.panels[k].y_tick_labels != plot.panels[first].y_tick_labels;
}
bool draws_x_labels(const HeatmapGrid& plot, std::size_t k) {
    const std::size_t below = k + grid_columns(plot);
    return below >= plot.panels.size() || plot.panels[k].x_tick_labels != plot.panels[below].x_tick_labels;
}

GridLayout grid_layout(const HeatmapGrid& plot) {
    GridLayout L;
    L.rows = plot.panels[0].values.shape(0);
    L.cols = plot.panels[0].values.shape(1);
    L.grid_cols = grid_columns(plot);
    L.grid_rows = (plot.panels.size() + L.grid_cols - 1) / L.grid_cols;
    L.cell = std::clamp(static_cast<int>(420 / std::max(L.rows, L.cols)), 12, 40);
    L.tick_font = std::clamp(static_cast<int>(std::lround(L.cell * 0.55)), 8, font_size);
    double x_text = 0, y_text = 0;
    for (const Heatmap& panel : plot.panels) {
        for (const std::string& label : tick_labels(panel.x_tick_labels, L.cols))
            x_text = std::max(x_text, text_pixels(label, L.tick_font));
        for (const std::string& label : tick_labels(panel.y_tick_labels, L.rows))
            y_text = std::max(y_text, text_pixels(label, L.tick_font));
    }
    L.x_rotation = x_text + 6 <= L.cell ? 0 : L.cell >= 24 ? 45 : 90;
    const double x_extent = L.x_rotation == 0 ? 1.4 * L.tick_font
                          : L.x_rotation == 45 ? 0.72 * (x_text + L.tick_font) : x_text;
    const int label_room = static_cast<int>(1.8 * font_size);
    const bool axis_labels = !plot.panels[0].xlabel.empty() || !plot.panels[0].ylabel.empty();
    // text_pixels runs about a fifth short of cairo's glyphs; err on the roomy side.
    L.y_room = static_cast<int>(1.25 * y_text) + 16 + (axis_labels ? label_room + 8 : 0);
    L.x_room = static_cast<int>(x_extent) + 14 + (axis_labels ? label_room : 0);
    L.top = plot.title.empty() ? 12 : 48;
    L.right = 22 + 18 + 10 + static_cast<int>(text_pixels("-0.000", font_size)) +
              (plot.colorbar_label.empty() ? 0 : label_room) + 16;
    const int plot_w = L.cell * static_cast<int>(L.cols), plot_h = L.cell * static_cast<int>(L.rows);
    // Column by column: room for y labels where any panel of the column draws them.
    std::vector<int> column_left(L.grid_cols, 0);
    int x = 0;
    for (std::size_t c = 0; c < L.grid_cols; ++c) {
        bool labels = false;
        for (std::size_t k = c; k < plot.panels.size(); k += L.grid_cols) labels = labels || draws_y_labels(plot, k);
        x += (labels ? L.y_room : L.gap);
        column_left[c] = x;
        x += plot_w;
    }
    L.width = std::max(x + L.right, static_cast<int>(1.25 * text_pixels(plot.title, title_font_size)) + 60);
    // Row by row from the top: a title above each panel, x labels below where drawn.
    std::vector<int> row_top(L.grid_rows, 0);
    int y = L.top;
    for (std::size_t r = 0; r < L.grid_rows; ++r) {
        bool labels = false;
        for (std::size_t k = r * L.grid_cols; k < std::min(plot.panels.size(), (r + 1) * L.grid_cols); ++k)
            labels = labels || draws_x_labels(plot, k);
        row_top[r] = y + L.title_room;
        y = row_top[r] + plot_h + (labels ? L.x_room : L.gap);
    }
    L.height = std::max(y + 8, L.top + 140);
    for (std::size_t k = 0; k < plot.panels.size(); ++k) {
        L.left.push_back(column_left[k % L.grid_cols]);
        L.bottom.push_back(L.height - row_top[k / L.grid_cols] - plot_h);
    }
    return L;
}

std::string screen(int pixels, int total) { return "screen " + number(static_cast<double>(pixels) / total); }

std::string tics(const std::vector<std::string>& labels, std::size_t count) {
    const std::vector<std::string> names = tick_labels(labels, count);
    std::string out = "(";
    for (std::size_t i = 0; i < names.size(); ++i)
        out += std::string(i ? ", " : "") + gp_quote(names[i]) + " " + std::to_string(i);
    return out + ")";
}

// What every panel shares: the palette, the colour range, the axes' extent.
std::string grid_settings(const HeatmapGrid& plot, const GridLayout& L) {
    const auto [lo, hi] = shared_colour_range(plot);
    std::string out = "# Viridis: perceptually uniform, dark = low, yellow = high; one range for every panel.\n"
                      "set palette defined (";
    for (std::size_t k = 0; k < viridis.size(); ++k)
        out += std::string(k ? ", " : "") + number(viridis[k].first) + " " + gp_quote(hex_colour(viridis[k].second));
    out += ")\nset cbrange [" + number(lo) + ":" + number(hi) + "]\n";
    if (!plot.colorbar_label.empty()) out += "set cblabel " + gp_quote(plot.colorbar_label) + "\n";
    out += "set cbtics scale 0.5 out nomirror\n"
           "set tics scale 0                 # labels name the cells; no tick marks needed\n"
           "set xrange [-0.5:" + number(L.cols - 0.5) + "]\n"
           "set yrange [" + number(L.rows - 0.5) + ":-0.5]     # reversed: row 0 is at the top\n";
    return out;
}

// One panel: its frame (margins fixed in pixels), title, tick labels, and the plot command.
std::string panel_commands(const HeatmapGrid& plot, const GridLayout& L, const std::string& name, std::size_t k,
                           bool pixels) {
    const Heatmap& panel = plot.panels[k];
    const int plot_w = L.cell * static_cast<int>(L.cols), plot_h = L.cell * static_cast<int>(L.rows);
    const std::string font = " font '," + std::to_string(L.tick_font) + "'";
    const std::string rotation = L.x_rotation == 0 ? "" : " rotate by " + std::to_string(L.x_rotation) + " right";
    std::string out = "\n# Panel " + std::to_string(k + 1) + ": " + one_line(panel.title) + "\n";
    out += "set lmargin at " + screen(L.left[k], L.width) + "\nset rmargin at " + screen(L.left[k] + plot_w, L.width) +
           "\nset bmargin at " + screen(L.bottom[k], L.height) + "\nset tmargin at " +
           screen(L.bottom[k] + plot_h, L.height) + "\n";
    out += "set title " + gp_quote(panel.title) + "\n";
    out += draws_x_labels(plot, k) ? "set xtics " + tics(panel.x_tick_labels, L.cols) + rotation + font + "\n"
                                   : "unset xtics\n";
    out += draws_y_labels(plot, k) ? "set ytics " + tics(panel.y_tick_labels, L.rows) + font + "\n" : "unset ytics\n";
    const bool bottom_row = k + L.grid_cols >= plot.panels.size(), first_column = k % L.grid_cols == 0;
    out += bottom_row && !panel.xlabel.empty() ? "set xlabel " + gp_quote(panel.xlabel) + "\n" : "unset xlabel\n";
    out += first_column && !panel.ylabel.empty() ? "set ylabel " + gp_quote(panel.ylabel) + "\n" : "unset ylabel\n";
    if (k + 1 == plot.panels.size()) {   // the one colour bar, right of the whole grid
        const int bar_h = std::max(plot_h, 120), top = L.bottom[0] + plot_h, bottom = L.bottom[k];
        out += "set colorbox user origin " + screen(L.width - L.right + 22, L.width) + ", " +
               screen((top + bottom) / 2 - bar_h / 2, L.height) + " size " + screen(18, L.width) + ", " +
               screen(bar_h, L.height) + "\n";
    } else {
        out += "unset colorbox\n";
    }
    // `with image` needs a grid of at least 2 x 2; a single row or column is drawn as boxes.
    const bool image = L.rows >= 2 && L.cols >= 2;
    const std::string style = image ? std::string("using 1:2:3 with image") + (pixels ? " pixels" : "")
                                    : "using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette";
    return out + "plot " + gp_quote(name + ".dat") + " index " + std::to_string(k) + " " + style + " notitle\n";
}

// For SVG, `pixels` draws every cell as its own rectangle (an embedded bitmap would blur).
std::string grid_commands(const HeatmapGrid& plot, const GridLayout& L, const std::string& name, bool pixels) {
    std::string out = "set multiplot" + (plot.title.empty() ? std::string() : " title " + gp_quote(plot.title) +
                                                                              " font '," + std::to_string(title_font_size) + "'") + "\n";
    for (std::size_t k = 0; k < plot.panels.size(); ++k) out += panel_commands(plot, L, name, k, pixels);
    return out + "unset multiplot\n";
}

// One block per panel (gnuplot's `index k`), two blank lines apart; inside, one line per cell.
std::string grid_data(const HeatmapGrid& plot) {
    std::string out = "# column row value; panel k is block k (index k), row 0 drawn at the top\n";
    for (const Heatmap& panel : plot.panels) {
        for (std::size_t i = 0; i < panel.values.shape(0); ++i) {
            for (std::size_t j = 0; j < panel.values.shape(1); ++j)
                out += std::to_string(j) + " " + std::to_string(i) + " " + number(panel.values(i, j)) + "\n";
            out += "\n";
        }
        out += "\n";
    }
    return out;
}

}  // namespace

namespace detail {

void check_grid(const char* function, const HeatmapGrid& plot) {
    if (plot.panels.empty())
        throw std::invalid_argument(std::string(function) + ": the grid '" + plot.title + "' has no panels");
    for (const Heatmap& panel : plot.panels) {
        check_heatmap(function, panel);
        if (panel.values.shape() != plot.panels[0].values.shape())
            throw std::invalid_argument(std::string(function) + ": panel '" + panel.title + "' is " +
                                        std::to_string(panel.values.shape(0)) + " x " +
                                        std::to_string(panel.values.shape(1)) + " but the first is " +
                                        std::to_string(plot.panels[0].values.shape(0)) + " x " +
                                        std::to_string(plot.panels[0].values.shape(1)) +
                                        "; give every panel the same shape");
    }
    if (plot.z_min && plot.z_max && !(*plot.z_min < *plot.z_max))
        throw std::invalid_argument(std::string(function) + ": z_min must be below z_max");
}

std::pair<double, double> shared_colour_range(const HeatmapGrid& plot) {
    double lo = INFINITY, hi = -INFINITY;
    for (const Heatmap& panel : plot.panels)
        for (const double v : panel.values)
            if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    Heatmap range;   // colour_range's rules (given bounds, a constant map) on the overall extremes
    range.values = Matrix<double>{{std::isfinite(lo) ? lo : 0.0, std::isfinite(hi) ? hi : 1.0}};
    range.z_min = plot.z_min;
    range.z_max = plot.z_max;
    return colour_range(range);
}

}  // namespace detail

Files save(const HeatmapGrid& plot, const std::filesystem::path& dir, const std::string& name) {
    check_name("attn::plot::save(HeatmapGrid)", name);
    check_grid("attn::plot::save(HeatmapGrid)", plot);
    ensure_directory(dir);
    write_text_atomically(dir / (name + ".dat"), grid_data(plot));
    const GridLayout layout = grid_layout(plot);
    const std::string data_note = "Data: " + name + ".dat (columns: column row value; one block per panel)";
    const std::string script =
        script_head("Heatmap grid '" + plot.title + "'", name, data_note, layout.width, layout.height) +
        grid_settings(plot, layout) + grid_commands(plot, layout, name, true) +
        script_tail(name, layout.width, layout.height, grid_settings(plot, layout) + grid_commands(plot, layout, name, false));
    return write_and_render(dir, name, script);
}

}  // namespace attn::plot
