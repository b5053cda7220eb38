// Plots for every chapter: each figure is written as a gnuplot script plus the data it
// reads, then rendered to SVG and PNG when gnuplot is installed. Without gnuplot the run
// still succeeds and says how to render later. Heatmaps also get a Unicode preview for the
// terminal. Introduced in chapter 00.
#pragma once
#include "common/tensor.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace attn::plot {

// One curve (or cloud of points) of a line plot.
struct Series {
    std::string label;            // legend entry; empty = no legend entry
    std::vector<double> x, y;     // same length
    bool points = false;          // draw points instead of a line
    bool markers = false;         // a line with a marker at every point (few points)
    bool dashed = false;          // dashed, in the colour of the series before it (a second metric of one model)
    bool reference = false;       // a theory or reference line: dashed and grey; with `points`, grey
                                  // rings around the points (a bound per category, not a trend)
    int colour = -1;              // the palette colour to use; -1: the series' own (by its position)
};

struct LinePlot {
    std::string title, xlabel, ylabel;
    std::vector<Series> series;
    bool log_x = false, log_y = false;
    std::optional<double> y_min, y_max;     // fixed y range; unset = automatic
    std::vector<std::string> x_tick_labels; // if set: tick i at x = i shows this label
    // Where the legend goes: "outside" (right of the plot), "below" (under the plot, one entry
    // per line: long labels over lines that fill every corner), or a gnuplot position inside
    // the plot such as "bottom left" or "top right" (for long labels that would squeeze the plot).
    std::string legend = "outside";
};

// Labelled 2-D points over a background coloured by a classifier's prediction.
struct RegionPlot {
    std::string title, xlabel, ylabel;
    std::vector<std::string> class_names;          // class c is named class_names[c]
    // The classifier's prediction on a regular grid: grid_class(i, j) at
    // (x_min + j * (x_max - x_min) / (cols - 1),  y_min + i * (y_max - y_min) / (rows - 1)).
    Matrix<std::size_t> grid_class;
    double x_min = 0, x_max = 1, y_min = 0, y_max = 1;
    std::vector<double> point_x, point_y;          // the data set
    std::vector<std::size_t> point_class;          // its labels
};

struct Heatmap {
    std::string title, xlabel, ylabel;
    Matrix<double> values;                  // (rows, cols): row i is drawn as the i-th row from the top
    std::vector<std::string> x_tick_labels; // one per column (tokens on attention maps); may be empty
    std::vector<std::string> y_tick_labels; // one per row; may be empty
    std::string colorbar_label;
    std::optional<double> z_min, z_max;     // colour range; unset = the data's range
    bool annotate = false;                  // print each value in its cell (small maps only)
    std::vector<std::size_t> highlight_columns;  // outlined columns (e.g. the context vector)
    // When not 0: dark borders around blocks of this many rows by this many columns (the tiles
    // of a tiled computation), counted from the top left, drawn whatever the map's size.
    std::size_t tile_rows = 0, tile_columns = 0;
    // Categorical mode, when not empty: every value is an integer c in 0..k-1, drawn in one of
    // k distinct colours (category 0 light grey, as a background, then the series colours)
    // with a key that names categories[c], instead of a continuous colour bar. For 0/1 maps
    // whose two values mean two different things, such as a mask's blocked and allowed cells.
    std::vector<std::string> categories;
    // The categories' own colours (0xRRGGBB, one per category) when they are the data, such as
    // the colours of an image's patches; empty = the default colours above.
    std::vector<std::uint32_t> category_colours;
};

// What was written. `rendered` is false when gnuplot is missing or failed (the reason is in
// `note`); the .gp script and its data are always there.
struct Files {
    std::filesystem::path script, svg, png;
    bool rendered = false;
    std::string note;
};

// Each writes DIR/NAME.gp and DIR/NAME*.dat, then DIR/NAME.svg and DIR/NAME.png when
// gnuplot is available. Throws std::runtime_error (naming the file) if a file cannot be written.
Files save(const LinePlot& plot, const std::filesystem::path& dir, const std::string& name);
Files save(const RegionPlot& plot, const std::filesystem::path& dir, const std::string& name);
Files save(const Heatmap& plot, const std::filesystem::path& dir, const std::string& name);

// save(), then one line on stdout saying where the figure went, or how to render it later.
Files save_and_report(const LinePlot& plot, const std::filesystem::path& dir, const std::string& name);
Files save_and_report(const RegionPlot& plot, const std::filesystem::path& dir, const std::string& name);
Files save_and_report(const Heatmap& plot, const std::filesystem::path& dir, const std::string& name);

// A terminal picture of the heatmap: one character cell per value, shaded with Unicode
// blocks (and 256-colour ANSI backgrounds when `colour` is true), row labels on the left,
// column labels underneath, and the colour scale. At most max_width columns of text.
std::string preview(const Heatmap& plot, bool colour, std::size_t max_width = 100);

// Several heatmaps of one shape side by side (gnuplot multiplot), `columns` per row, each
// panel with its own title and tick labels, all on one colour scale with one colour bar at
// the right. A panel's y tick labels are drawn only in the first column when they equal that
// row's first panel's (shared), and its x tick labels only in the bottom row when they equal
// the panel's below. Each panel's xlabel/ylabel shows on the bottom row / first column.
struct HeatmapGrid {
    std::string title;
    std::vector<Heatmap> panels;            // same (rows, cols); their own z ranges are ignored
    std::size_t columns = 0;                // panels per row; 0 = all in one row
    std::string colorbar_label;
    std::optional<double> z_min, z_max;     // the shared colour range; unset = all panels' range
};

Files save(const HeatmapGrid& plot, const std::filesystem::path& dir, const std::string& name);
Files save_and_report(const HeatmapGrid& plot, const std::filesystem::path& dir, const std::string& name);

// A terminal picture of the grid: its title, then the panels one below the other, each under
// its own title and drawn as preview(Heatmap) draws a map, all on the grid's one colour
// range, then one scale. Column labels that the next panel repeats are drawn only once,
// under the last panel that has them. At most max_width columns of text.
std::string preview(const HeatmapGrid& plot, bool colour, std::size_t max_width = 100);

// True when `gnuplot` can be run from PATH (looked up once).
bool gnuplot_available();

// Removes from `dir` the figures (NAME.gp with its .svg, .png and .dat) that an earlier run
// wrote and this process did not, so that a run into an old --out (a --load run draws no
// training curves, say) never leaves the last run's figures looking like its own. Only
// figures whose script carries this module's header are touched: files of the learner's stay.
void remove_earlier_figures(const std::filesystem::path& dir);

}  // namespace attn::plot
